package lockholder

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/proc"
)

// TestHolderTakesJobs: a hook's job reaches the holder of its Claude
// process, which runs it; whatever else arrives on the socket (too long,
// empty, with descriptors attached, from another user) is dropped, and
// the holder goes on holding the lock and taking jobs.
func TestHolderTakesJobs(t *testing.T) {
	claude, dir, holder := heldLock(t)
	home := claude.layout.Home
	sock := filepath.Join(dir, jobSocket)
	awaitSocket(t, dir)
	checkMode(t, sock, os.ModeSocket|0o777&^umask())

	ran := func(name string) string {
		t.Helper()
		path := filepath.Join(home, name)
		if err := SendJob(dir, []byte(path)); err != nil {
			t.Fatalf("SendJob: %v", err)
		}
		var b []byte
		eventually(t, 5*time.Second, "the holder runs the job", func() bool {
			var err error
			b, err = os.ReadFile(path)
			return err == nil
		})
		return string(b)
	}
	if got, want := ran("first"), strconv.Itoa(holder); got != want {
		t.Errorf("job ran in pid %s, want the holder's %s", got, want)
	}

	bad := filepath.Join(home, "bad")
	long := []byte(bad + strings.Repeat("/x", MaxJob))
	sendRaw(t, sock, long, nil)
	sendRaw(t, sock, nil, nil)
	sendRaw(t, sock, []byte(bad), unix.UnixRights(int(os.Stdin.Fd())))
	if os.Getuid() == 0 {
		// Only a process with CAP_SETUID may claim another uid.
		sendRaw(t, sock, []byte(bad), unix.UnixCredentials(&unix.Ucred{Pid: int32(os.Getpid()), Uid: 65534, Gid: 65534}))
	}
	if got, want := ran("second"), strconv.Itoa(holder); got != want {
		t.Errorf("after bad datagrams the job ran in pid %s, want the holder's %s", got, want)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("the holder ran a job it should have dropped")
	}
	if got := holdersOf(t, dir); len(got) != 1 || got[0] != holder {
		t.Errorf("holders after bad datagrams %v, want [%d]", got, holder)
	}
	proc, err := proc.Inspect(claude.pid())
	if err != nil {
		t.Fatal(err)
	}
	if !HasLiveLock(claude.layout, proc) {
		t.Error("the holder gave up the lock")
	}

	claude.kill9()
	eventually(t, time.Second, "lock removed after claude exits", func() bool { return !exists(dir) })
	if err := SendJob(dir, []byte(bad)); !errors.Is(err, ErrNoInbox) {
		t.Errorf("SendJob after the lock went: %v, want ErrNoInbox", err)
	}
}

// awaitSocket waits for the holder to bind its job socket: it does so
// after the hook that started it has returned (until then a hook starts
// its jobs itself).
func awaitSocket(t *testing.T, dir string) {
	t.Helper()
	eventually(t, 5*time.Second, "the holder binds its socket", func() bool {
		info, err := os.Lstat(filepath.Join(dir, jobSocket))
		return err == nil && info.Mode()&os.ModeSocket != 0
	})
}

// sendRaw sends one datagram with control messages oob to the socket at
// path.
func sendRaw(t *testing.T, path string, msg, oob []byte) {
	t.Helper()
	fd, err := newJobSocket()
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Sendmsg(fd, msg, oob, &unix.SockaddrUnix{Name: path}, 0); err != nil {
		t.Fatalf("sending %d bytes: %v", len(msg), err)
	}
}

func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}

// TestKilledHoldersSocket: a holder killed with kill -9 leaves its socket;
// a send to it fails at once (and the hook starts the job itself), and
// the next holder replaces it. Something that is not a socket at the name
// is never removed: that holder takes no jobs but holds the lock.
func TestKilledHoldersSocket(t *testing.T) {
	claude, dir, first := heldLock(t)
	home := claude.layout.Home
	awaitSocket(t, dir)
	killHolder(t, claude, first)
	if _, err := os.Lstat(filepath.Join(dir, jobSocket)); err != nil {
		t.Fatalf("the killed holder's socket: %v", err)
	}
	job := filepath.Join(home, "job")
	// Its flock goes a moment before its socket, as the dying holder's
	// files are closed in turn.
	var err error
	eventually(t, time.Second, "a send to the dead holder's socket fails", func() bool {
		err = SendJob(dir, []byte(job))
		return err != nil
	})
	if !errors.Is(err, ErrNoInbox) || !errors.Is(err, unix.ECONNREFUSED) {
		t.Errorf("SendJob to a dead holder's socket: %v, want ErrNoInbox (ECONNREFUSED)", err)
	}

	claude.fire(1, "s1")
	second := holdersOf(t, dir)
	if len(second) != 1 || second[0] == first {
		t.Fatalf("holders = %v, want a new one", second)
	}
	eventually(t, 5*time.Second, "the new holder takes jobs", func() bool {
		return !errors.Is(SendJob(dir, []byte("/")), ErrNoInbox)
	})
	if err := SendJob(dir, []byte(job)); err != nil {
		t.Fatalf("SendJob to the new holder: %v", err)
	}
	eventually(t, 5*time.Second, "the new holder runs the job", func() bool { return exists(job) })

	// Not a socket at the name: left alone.
	killHolder(t, claude, second[0])
	sock := filepath.Join(dir, jobSocket)
	if err := os.Remove(sock); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sock, []byte("not a socket"), 0o600); err != nil {
		t.Fatal(err)
	}
	claude.fire(1, "s1")
	if got := holdersOf(t, dir); len(got) != 1 {
		t.Fatalf("holders = %v, want one", got)
	}
	if b, err := os.ReadFile(sock); err != nil || string(b) != "not a socket" {
		t.Errorf("the file at the socket's name: %q, %v; want it untouched", b, err)
	}
	if err := SendJob(dir, []byte(job)); !errors.Is(err, ErrNoInbox) {
		t.Errorf("SendJob with a file at the socket's name: %v, want ErrNoInbox", err)
	}
}

// killHolder kills a holder with kill -9 and waits until its files are
// closed (its command line goes first, as it exits): its flock is free.
func killHolder(t *testing.T, claude *claudeProc, pid int) {
	t.Helper()
	proc, err := proc.Inspect(claude.pid())
	if err != nil {
		t.Fatal(err)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	eventually(t, time.Second, "flock released", func() bool { return !HasLiveLock(claude.layout, proc) })
}

func TestSendJobWithoutHolder(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(t.TempDir(), "stale.lock")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	fd, err := newJobSocket()
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Bind(fd, &unix.SockaddrUnix{Name: filepath.Join(stale, jobSocket)}); err != nil {
		t.Fatal(err)
	}
	unix.Close(fd)
	for _, tt := range []struct {
		name, dir string
		errno     error
	}{
		{"no socket: an older holder", dir, unix.ENOENT},
		{"no lock", filepath.Join(dir, "gone.lock"), unix.ENOENT},
		{"a dead holder's socket", stale, unix.ECONNREFUSED},
		{"a path too long for a socket", filepath.Join(dir, strings.Repeat("d", maxSocketPath)), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := SendJob(tt.dir, []byte("/job"))
			if !errors.Is(err, ErrNoInbox) || (tt.errno != nil && !errors.Is(err, tt.errno)) {
				t.Errorf("SendJob = %v, want ErrNoInbox (%v)", err, tt.errno)
			}
		})
	}
	if err := SendJob(dir, make([]byte, MaxJob+1)); err == nil || errors.Is(err, ErrNoInbox) {
		t.Errorf("SendJob of an oversized job = %v, want an error of its own", err)
	}
}

// TestInboxDrainsOnExit: jobs sent before the holder ends still run, and
// a send after that fails at once, so the hook runs its job itself.
func TestInboxDrainsOnExit(t *testing.T) {
	var got []string
	dir, in := testInbox(t, func(job []byte) { got = append(got, string(job)) })
	for _, job := range []string{"/a", "/b", "/c"} {
		if err := SendJob(dir, []byte(job)); err != nil {
			t.Fatal(err)
		}
	}
	in.drain()
	if strings.Join(got, " ") != "/a /b /c" {
		t.Errorf("drained %q, want /a /b /c", got)
	}
	if err := SendJob(dir, []byte("/d")); !errors.Is(err, ErrNoInbox) {
		t.Errorf("SendJob after the drain: %v, want ErrNoInbox", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, jobSocket)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket after the holder closed it: %v", err)
	}
	in.close() // twice is harmless
}

// TestInboxSurvivesPanickingHandler: a job the handler chokes on costs
// that job, not the holder.
func TestInboxSurvivesPanickingHandler(t *testing.T) {
	n := 0
	dir, in := testInbox(t, func(job []byte) {
		n++
		if string(job) == "/panic" {
			panic("bad job")
		}
	})
	for _, job := range []string{"/panic", "/fine"} {
		if err := SendJob(dir, []byte(job)); err != nil {
			t.Fatal(err)
		}
	}
	if !in.serve() {
		t.Fatal("serve failed")
	}
	in.runDue(time.Now().Add(time.Hour))
	if n != 2 {
		t.Errorf("ran %d jobs, want both", n)
	}
}

// TestInboxDelaysJobs: a job runs once its delay is over, not when it
// arrives (the hook that sent it is still finishing), and the holder's
// wait wakes for it.
func TestInboxDelaysJobs(t *testing.T) {
	var got []string
	dir, in := testInbox(t, func(job []byte) { got = append(got, string(job)) })
	if in.timeout(time.Now()) != -1 {
		t.Errorf("timeout with nothing waiting = %d, want -1", in.timeout(time.Now()))
	}
	start := time.Now()
	for _, job := range []string{"/a", "/b"} {
		if err := SendJob(dir, []byte(job)); err != nil {
			t.Fatal(err)
		}
	}
	if !in.serve() {
		t.Fatal("serve failed")
	}
	if len(got) != 0 {
		t.Fatalf("jobs ran on arrival: %q", got)
	}
	if ms := in.timeout(start); ms < int(jobDelay/time.Millisecond) || ms > int(jobDelay/time.Millisecond)+1000 {
		t.Errorf("timeout = %d ms, want about %v", ms, jobDelay)
	}
	in.runDue(start.Add(jobDelay / 2))
	if len(got) != 0 {
		t.Errorf("jobs ran before their delay: %q", got)
	}
	in.runDue(time.Now().Add(jobDelay))
	if strings.Join(got, " ") != "/a /b" {
		t.Errorf("after the delay ran %q, want /a /b", got)
	}
	if in.timeout(time.Now()) != -1 {
		t.Error("jobs still waiting after they ran")
	}
}

// testInbox binds a job socket in a temporary directory, in this process,
// with handle as its handler. The handler runs in serve and drain.
func testInbox(t *testing.T, handle func(job []byte)) (dir string, in *inbox) {
	t.Helper()
	dir = t.TempDir()
	dirFD, err := openNoFollow(dir)
	if err != nil {
		t.Fatal(err)
	}
	in = openInbox(dir, dirFD, handle)
	if in == nil {
		t.Fatal("no inbox")
	}
	t.Cleanup(func() {
		in.close()
		unix.Close(dirFD)
	})
	return dir, in
}
