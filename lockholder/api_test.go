package lockholder

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/resolver"
)

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// self is the test process, the one live process every test may name.
func self(t *testing.T) proc.Process {
	t.Helper()
	p, err := proc.Inspect(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// makeLock writes a lock directory by hand; meta nil leaves meta.json out.
func makeLock(t *testing.T, l paths.Layout, path string, pid int, meta *resolver.LockMeta) string {
	t.Helper()
	dir := Dir(l, path, pid)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(dir, pidFile, []byte(strconv.Itoa(pid))); err != nil {
		t.Fatal(err)
	}
	if meta != nil {
		if err := writeMeta(dir, *meta); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// age makes path look last changed d ago.
func age(t *testing.T, path string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func TestSweep(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	me := self(t)
	dead := deadPID(t)
	meta := func(pid int, started int64) *resolver.LockMeta {
		return &resolver.LockMeta{PID: pid, Path: "/p", Created: 1, ProcStarted: started, SessionID: "s"}
	}

	live := makeLock(t, l, "/live", me.PID, meta(me.PID, me.Started))
	deadLock := makeLock(t, l, "/dead", dead, meta(dead, me.Started))
	reused := makeLock(t, l, "/reused", me.PID, meta(me.PID, me.Started-3600))
	creating := makeLock(t, l, "/creating", dead, nil) // an Ensure is writing it
	abandoned := makeLock(t, l, "/abandoned", dead, nil)
	age(t, abandoned, time.Minute)
	liveNoMeta := makeLock(t, l, "/live-no-meta", me.PID, nil)
	age(t, liveNoMeta, time.Minute)
	junkMeta := makeLock(t, l, "/junk", me.PID, meta(dead, 1)) // meta names another pid: judged by name
	// Claude Code's own files and other junk are never touched.
	keep := []string{
		filepath.Join(l.LockDir(), strconv.Itoa(dead)+".json"),
		filepath.Join(l.LockDir(), "notes.txt"),
		filepath.Join(l.LockDir(), "zzzzzzzzzzzz-"+strconv.Itoa(dead)+".lock"),
		filepath.Join(l.LockDir(), "abcdefabcdef-"+strconv.Itoa(dead)+".lock"), // a file, not a directory
	}
	for _, p := range keep {
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	n, err := Sweep(l)
	if err != nil || n != 3 {
		t.Errorf("Sweep = %d, %v; want 3, nil", n, err)
	}
	for _, dir := range []string{deadLock, reused, abandoned} {
		if exists(dir) {
			t.Errorf("stale %s kept", filepath.Base(dir))
		}
	}
	for _, p := range append(keep, live, creating, liveNoMeta, junkMeta) {
		if !exists(p) {
			t.Errorf("%s removed", filepath.Base(p))
		}
	}
	if n, err := Sweep(l); n != 0 || err != nil {
		t.Errorf("second Sweep = %d, %v; want 0, nil", n, err)
	}
}

func TestSweepWithoutSessionsDir(t *testing.T) {
	if n, err := Sweep(paths.Layout{Home: t.TempDir()}); n != 0 || err != nil {
		t.Errorf("Sweep = %d, %v; want 0, nil", n, err)
	}
}

// TestHasLiveLock: HasLiveLock and HasLiveLockAt agree, whether the
// session is still in the directory its lock was made for or not.
func TestHasLiveLock(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	me := self(t)
	check := func(what string, p proc.Process, want bool) {
		t.Helper()
		for name, got := range map[string]bool{
			"HasLiveLock":               HasLiveLock(l, p),
			"HasLiveLockAt, same path":  HasLiveLockAt(l, p, "/p"),
			"HasLiveLockAt, moved":      HasLiveLockAt(l, p, "/moved"),
			"HasLiveLockAt, empty path": HasLiveLockAt(l, p, ""),
		} {
			if got != want {
				t.Errorf("%s: %s = %v, want %v", what, name, got, want)
			}
		}
	}
	check("no lock", me, false)
	dir := makeLock(t, l, "/p", me.PID, &resolver.LockMeta{PID: me.PID, Path: "/p", ProcStarted: me.Started})
	check("no holder", me, false)
	// Hold it the way a holder does.
	fd, held, err := lockForHolding(dir)
	if err != nil || !held {
		t.Fatalf("lockForHolding = %v, %v", held, err)
	}
	defer unix.Close(fd)
	check("held", me, true)
	if _, held, err := lockForHolding(dir); held || err != nil {
		t.Errorf("a second holder got the lock: %v, %v", held, err)
	}
	other := me
	other.Started -= 3600 // same pid, another process
	check("a reused pid", other, false)
}

// Ensure on the locks a process may already have. The holder binary is
// missing, so wherever Ensure would start a holder it fails instead, and
// says so; the files are right either way.
func TestEnsureExistingLock(t *testing.T) {
	me := self(t)
	missing := filepath.Join(t.TempDir(), "missing")
	metaFor := func(path string, started int64, session string) *resolver.LockMeta {
		return &resolver.LockMeta{PID: me.PID, Path: path, Created: 1, ProcStarted: started, SessionID: session}
	}
	for _, tt := range []struct {
		name      string
		setup     func(l paths.Layout) string // makes a lock, returns its dir
		held      bool                        // a holder holds it
		wantSpawn bool                        // Ensure tries to start a holder
		wantGone  bool                        // the lock made by setup is removed
		wantMeta  *resolver.LockMeta          // in the lock Ensure leaves (nil: none)
	}{
		{
			name: "earlier process with the same pid",
			setup: func(l paths.Layout) string {
				return makeLock(t, l, "/old", me.PID, metaFor("/old", me.Started-3600, "s0"))
			},
			wantSpawn: true, wantGone: true,
			wantMeta: metaFor("/new", me.Started, "s1"),
		},
		{
			name: "half made long ago: adopted",
			setup: func(l paths.Layout) string {
				dir := makeLock(t, l, "/old", me.PID, nil)
				age(t, dir, time.Minute)
				return dir
			},
			wantSpawn: true,
			wantMeta:  metaFor("/new", me.Started, "s1"),
		},
		{
			name:     "being made by a racing Ensure: left to it",
			setup:    func(l paths.Layout) string { return makeLock(t, l, "/old", me.PID, nil) },
			wantMeta: nil,
		},
		{
			name: "held, after /clear: new session id",
			setup: func(l paths.Layout) string {
				return makeLock(t, l, "/old", me.PID, metaFor("/old", me.Started, "s0"))
			},
			held:     true,
			wantMeta: metaFor("/old", me.Started, "s1"),
		},
		{
			name: "holder died: restarted",
			setup: func(l paths.Layout) string {
				return makeLock(t, l, "/old", me.PID, metaFor("/old", me.Started, "s1"))
			},
			wantSpawn: true,
			wantMeta:  metaFor("/old", me.Started, "s1"),
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := paths.Layout{Home: t.TempDir()}
			dir := tt.setup(l)
			if tt.held {
				fd, held, err := lockForHolding(dir)
				if err != nil || !held {
					t.Fatalf("lockForHolding = %v, %v", held, err)
				}
				defer unix.Close(fd)
			}
			err := Ensure(l, me, "/new", "s1", missing)
			if gotSpawn := err != nil; gotSpawn != tt.wantSpawn {
				t.Errorf("Ensure = %v; want a holder started: %v", err, tt.wantSpawn)
			}
			if tt.wantGone == exists(dir) {
				t.Errorf("old lock exists: %v, want %v", exists(dir), !tt.wantGone)
			}
			if tt.wantGone {
				dir = Dir(l, "/new", me.PID)
			}
			meta, err := readMeta(dir)
			switch {
			case tt.wantMeta == nil && err == nil:
				t.Errorf("meta written: %+v", meta)
			case tt.wantMeta != nil && err != nil:
				t.Errorf("no meta: %v", err)
			case tt.wantMeta != nil && (meta.PID != tt.wantMeta.PID || meta.Path != tt.wantMeta.Path ||
				meta.ProcStarted != tt.wantMeta.ProcStarted || meta.SessionID != tt.wantMeta.SessionID):
				t.Errorf("meta = %+v, want %+v", meta, *tt.wantMeta)
			}
			if holderAlive(dir) != tt.held {
				t.Errorf("holder alive: %v, want %v (a failed start must not keep the flock)", !tt.held, tt.held)
			}
		})
	}
}

func TestEnsureRejects(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	me := self(t)
	for name, call := range map[string]func() error{
		"no pid":   func() error { return Ensure(l, proc.Process{}, "/p", "s", "/bin/true") },
		"no path":  func() error { return Ensure(l, me, "", "s", "/bin/true") },
		"dead pid": func() error { return Ensure(l, proc.Process{PID: deadPID(t)}, "/p", "s", "/bin/true") },
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if entries, _ := os.ReadDir(l.LockDir()); len(entries) != 0 {
		t.Errorf("locks made anyway: %v", entries)
	}
}

func TestHoldMainArgs(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"/tmp/x.lock"},
		{"/tmp/x.lock", "12"},
		{"/tmp/x.lock", "abc", "1"},
		{"/tmp/x.lock", "12", "soon"},
		{"/tmp/x.lock", "-3", "1"},
		{"/tmp/x.lock", "12", "1", "extra"},
	} {
		if got := holdMain(args, nil, nil, io.Discard); got != 2 {
			t.Errorf("HoldMain(%q) = %d, want 2", args, got)
		}
	}
}

// A holder started for a process that is gone, or whose pid now belongs
// to another process, removes the lock at once instead of holding it.
func TestHolderRemovesLockOfGoneProcess(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	me := self(t)
	dead := deadPID(t)
	for name, p := range map[string]proc.Process{
		"gone":   {PID: dead, Started: me.Started},
		"reused": {PID: me.PID, Started: me.Started - 3600},
	} {
		dir := makeLock(t, l, "/"+name, p.PID, &resolver.LockMeta{PID: p.PID, Path: "/" + name, ProcStarted: p.Started})
		done := make(chan int, 1)
		go func() {
			done <- holdMain([]string{dir, strconv.Itoa(p.PID), strconv.FormatInt(p.Started, 10)}, nil, nil, io.Discard)
		}()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("%s: HoldMain = %d, want 0", name, code)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: holder still holding a lock of a gone process", name)
		}
		if exists(dir) {
			t.Errorf("%s: lock kept", name)
		}
	}
}
