package lockholder

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/resolver"
)

// holderExitTimeout bounds how long a holder takes to exit once its work is
// done. A holder built with -race (the test binary) sleeps a second in exit
// for the race detector's sake (GORACE atexit_sleep_ms), and holders get
// an empty environment, so that cannot be turned off.
const holderExitTimeout = 3 * time.Second

func TestLockFollowsClaudeProcess(t *testing.T) {
	home, project := newHome(t)
	claude := startClaude(t, home, project)
	dir := claude.lockDir()
	killHoldersAtCleanup(t, dir)

	before := time.Now().Unix()
	claude.fire(1, "s1")
	meta, err := readMeta(dir)
	if err != nil {
		t.Fatalf("no lock after SessionStart: %v", err)
	}
	proc, err := proc.Inspect(claude.pid())
	if err != nil {
		t.Fatal(err)
	}
	want := resolver.LockMeta{
		PID: claude.pid(), Path: paths.Normalize(project),
		Created: meta.Created, ProcStarted: proc.Started, SessionID: "s1",
	}
	if meta != want {
		t.Errorf("meta = %+v, want %+v", meta, want)
	}
	if meta.Created < before || meta.Created > time.Now().Unix() {
		t.Errorf("created %d, not between %d and now", meta.Created, before)
	}
	if b, err := os.ReadFile(filepath.Join(dir, pidFile)); err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(claude.pid()) {
		t.Errorf("pid file = %q, %v; want %d", b, err, claude.pid())
	}
	checkMode(t, dir, 0o700|os.ModeDir)
	checkMode(t, filepath.Join(dir, pidFile), 0o600)
	checkMode(t, filepath.Join(dir, metaFile), 0o600)

	holders := holdersOf(t, dir)
	if len(holders) != 1 {
		t.Fatalf("holders = %v, want one", holders)
	}
	checkDetached(t, holders[0], dir)
	if !HasLiveLock(claude.layout, proc) {
		t.Error("HasLiveLock = false with a live holder")
	}

	// After /clear the same process runs a new session: same lock, same
	// holder, new session id.
	claude.fire(1, "s2")
	if meta, err := readMeta(dir); err != nil || meta.SessionID != "s2" {
		t.Errorf("after /clear: meta %+v, %v; want session s2", meta, err)
	}
	if got := holdersOf(t, dir); !slices.Equal(got, holders) {
		t.Errorf("after /clear: holders %v, want %v", got, holders)
	}

	claude.kill9()
	took := eventually(t, time.Second, "lock removed after kill -9 of claude", func() bool { return !exists(dir) })
	t.Logf("lock removed %v after claude died", took)
	eventually(t, holderExitTimeout, "holder exits", func() bool { return len(holdersOf(t, dir)) == 0 })
	if entries, _ := os.ReadDir(claude.layout.LockDir()); len(entries) != 0 {
		t.Errorf("sessions dir not empty: %v", entries)
	}
}

// checkMode fails unless path has exactly mode (type and permissions).
func checkMode(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode() & (os.ModeType | os.ModePerm); got != mode {
		t.Errorf("%s: mode %v, want %v", filepath.Base(path), got, mode)
	}
}

// checkDetached checks the holder has a session of its own, /dev/null for
// stdin, stdout and stderr, its lock's pid file as descriptor 3, no pipe
// (the stand-in Claude leaked two pipes to its hooks), and one socket: its
// job socket. Other descriptors are the holder's own: its Go runtime's
// cgroup files, pidfd, inotify.
func checkDetached(t *testing.T, pid int, dir string) {
	t.Helper()
	sid, err := unix.Getsid(pid)
	if err != nil || sid != pid {
		t.Errorf("holder session id = %d, %v; want its own (%d)", sid, err, pid)
	}
	fdDir := "/proc/" + strconv.Itoa(pid) + "/fd"
	entries, err := os.ReadDir(fdDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		target, _ := os.Readlink(filepath.Join(fdDir, name))
		switch {
		case name == "0" || name == "1" || name == "2":
			if target != os.DevNull {
				t.Errorf("holder fd %s -> %s, want %s", name, target, os.DevNull)
			}
		case name == "3":
			if want := filepath.Join(dir, pidFile); target != want {
				t.Errorf("holder fd 3 -> %s, want its lock's %s", target, want)
			}
		case strings.HasPrefix(target, "socket:"):
			if !isJobSocket(t, pid, target, dir) {
				t.Errorf("holder fd %s -> %s: inherited", name, target)
			}
		case strings.HasPrefix(target, "pipe:"):
			t.Errorf("holder fd %s -> %s: inherited", name, target)
		}
	}
}

// isJobSocket reports whether the socket target ("socket:[inode]") of
// process pid is bound to dir's job socket, as /proc/<pid>/net/unix says.
func isJobSocket(t *testing.T, pid int, target, dir string) bool {
	t.Helper()
	inode := strings.TrimSuffix(strings.TrimPrefix(target, "socket:["), "]")
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/net/unix")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 8 && f[6] == inode {
			return f[7] == filepath.Join(dir, jobSocket)
		}
	}
	return false
}

func TestKilledHolderIsReplaced(t *testing.T) {
	home, project := newHome(t)
	claude := startClaude(t, home, project)
	dir := claude.lockDir()
	killHoldersAtCleanup(t, dir)
	proc, err := proc.Inspect(claude.pid())
	if err != nil {
		t.Fatal(err)
	}

	claude.fire(1, "s1")
	first := holdersOf(t, dir)
	if len(first) != 1 {
		t.Fatalf("holders = %v, want one", first)
	}
	if err := syscall.Kill(first[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, time.Second, "holder dies", func() bool { return len(holdersOf(t, dir)) == 0 })
	eventually(t, time.Second, "flock released", func() bool { return !HasLiveLock(claude.layout, proc) })
	// Claude still lives: its lock stays, and Sweep agrees.
	if n, err := Sweep(claude.layout); n != 0 || err != nil {
		t.Errorf("Sweep = %d, %v; want 0, nil", n, err)
	}
	if !exists(dir) {
		t.Fatal("lock removed with its holder while claude lives")
	}

	claude.fire(1, "s1")
	second := holdersOf(t, dir)
	if len(second) != 1 || second[0] == first[0] {
		t.Fatalf("holders after the next event = %v, want one new (old %v)", second, first)
	}
	if !HasLiveLock(claude.layout, proc) {
		t.Error("HasLiveLock = false after respawn")
	}
	claude.kill9()
	eventually(t, time.Second, "lock removed by the new holder", func() bool { return !exists(dir) })
}

func TestRacingEventsLeaveOneHolder(t *testing.T) {
	home, project := newHome(t)
	claude := startClaude(t, home, project)
	dir := claude.lockDir()
	killHoldersAtCleanup(t, dir)

	claude.fire(10, "s1")
	for _, wait := range []time.Duration{0, 300 * time.Millisecond} {
		time.Sleep(wait)
		if got := holdersOf(t, dir); len(got) != 1 {
			t.Errorf("after %v: holders %v, want one", wait, got)
		}
		entries, err := os.ReadDir(claude.layout.LockDir())
		if err != nil || len(entries) != 1 || entries[0].Name() != filepath.Base(dir) {
			t.Errorf("after %v: sessions dir %v, %v; want just %s", wait, entries, err, filepath.Base(dir))
		}
	}
	// Ten more events for a held lock start nobody.
	claude.fire(10, "s1")
	if got := holdersOf(t, dir); len(got) != 1 {
		t.Errorf("holders %v, want one", got)
	}
}

func TestResumeGetsItsOwnLock(t *testing.T) {
	home, project := newHome(t)
	first := startClaude(t, home, project)
	first.fire(1, "same")
	resumed := startClaude(t, home, project) // claude --continue: new pid, same session
	resumed.fire(1, "same")
	killHoldersAtCleanup(t, first.lockDir(), resumed.lockDir())

	for _, c := range []*claudeProc{first, resumed} {
		if meta, err := readMeta(c.lockDir()); err != nil || meta.SessionID != "same" || meta.PID != c.pid() {
			t.Errorf("lock of pid %d: %+v, %v", c.pid(), meta, err)
		}
	}
	first.kill9()
	eventually(t, time.Second, "first lock removed", func() bool { return !exists(first.lockDir()) })
	if !exists(resumed.lockDir()) {
		t.Error("the resumed process's lock went with the first one")
	}
}

func TestHolderExitsWhenLockRemoved(t *testing.T) {
	for _, how := range []string{"rm -r", "mv"} {
		t.Run(how, func(t *testing.T) {
			home, project := newHome(t)
			claude := startClaude(t, home, project)
			dir := claude.lockDir()
			killHoldersAtCleanup(t, dir)
			claude.fire(1, "s1")
			holders := holdersOf(t, dir)
			if len(holders) != 1 {
				t.Fatalf("holders %v, want one", holders)
			}
			// A rewrite of meta.json (temp file, rename) is no removal.
			claude.fire(1, "s2")
			time.Sleep(50 * time.Millisecond)
			if got := holdersOf(t, dir); !slices.Equal(got, holders) {
				t.Fatalf("holders after a meta rewrite %v, want %v", got, holders)
			}
			var err error
			if how == "mv" {
				err = os.Rename(dir, dir+".old")
			} else {
				err = os.RemoveAll(dir)
			}
			if err != nil {
				t.Fatal(err)
			}
			eventually(t, holderExitTimeout, "holder exits", func() bool { return len(holdersOf(t, dir)) == 0 })
			if how == "mv" && !exists(dir+".old") {
				t.Error("holder removed a lock that is no longer its")
			}
		})
	}
}

// A lock whose pid file went missing (with its holder) is repaired by the
// next event: the pid file carries the holder's flock.
func TestLockWithoutPIDFileIsRepaired(t *testing.T) {
	claude, dir, holder := heldLock(t)
	syscall.Kill(holder, syscall.SIGKILL)
	eventually(t, time.Second, "holder dies", func() bool { return len(holdersOf(t, dir)) == 0 })
	if err := os.Remove(filepath.Join(dir, pidFile)); err != nil {
		t.Fatal(err)
	}
	claude.fire(1, "s1")
	if b, err := os.ReadFile(filepath.Join(dir, pidFile)); err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(claude.pid()) {
		t.Errorf("pid file = %q, %v; want %d", b, err, claude.pid())
	}
	if got := holdersOf(t, dir); len(got) != 1 {
		t.Errorf("holders = %v, want one", got)
	}
}
