package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/resolver"
	"github.com/fsnotify/fsnotify"
)

// patience bounds every wait for an event; the events themselves come in
// milliseconds.
const patience = 5 * time.Second

// silence is how long a test listens to be sure nothing comes: many times
// the debounce.
const silence = 150 * time.Millisecond

type fixture struct {
	t      *testing.T
	layout paths.Layout
	config string
	w      *Watcher
	logs   *logBuffer
}

type logBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (l *logBuffer) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	home := t.TempDir()
	f := &fixture{t: t, layout: paths.Layout{Home: home},
		config: filepath.Join(home, ".config", "hud", "config.toml"), logs: &logBuffer{}}
	claude := f.layout.ClaudeDir()
	files := []string{filepath.Join(claude, "settings.json"), filepath.Join(claude, "vibe-check-state.json"), filepath.Join(claude, "hud-breaks.json")}
	w, err := New(Options{Layout: f.layout, Files: files, ConfigPath: f.config, Logf: f.logs.logf})
	if err != nil {
		t.Fatal(err)
	}
	f.w = w
	t.Cleanup(func() { w.Close() })
	return f
}

// next waits for the next Change.
func (f *fixture) next() Change {
	f.t.Helper()
	select {
	case c, ok := <-f.w.Changes():
		if !ok {
			f.t.Fatal("Changes closed")
		}
		return c
	case <-time.After(patience):
		f.t.Fatalf("no Change within %v; log:\n%s", patience, f.logs)
	}
	return Change{}
}

// quiet checks that no Change comes.
func (f *fixture) quiet(why string) {
	f.t.Helper()
	select {
	case c := <-f.w.Changes():
		f.t.Errorf("%s: got %+v, want nothing", why, c)
	case <-time.After(silence):
	}
}

// writeStore writes sessions.json the way the hook does: a temp file in the
// same directory, then a rename over the store.
func (f *fixture) writeStore(text string) {
	f.t.Helper()
	dir := f.layout.StoreDir()
	tmp, err := os.CreateTemp(dir, "sessions.json.tmp-*")
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := tmp.WriteString(text); err != nil {
		f.t.Fatal(err)
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), f.layout.StorePath()); err != nil {
		f.t.Fatal(err)
	}
}

func TestNewCreatesMissingDirectories(t *testing.T) {
	f := newFixture(t)
	for _, dir := range []string{f.layout.StoreDir(), f.layout.LockDir(), filepath.Dir(f.config)} {
		info, err := os.Stat(dir)
		if err != nil {
			t.Fatalf("%s not created: %v", dir, err)
		}
		if perm := info.Mode().Perm(); perm != 0o700 {
			t.Errorf("%s has mode %v, want 0700", dir, perm)
		}
	}
	f.quiet("creating the directories")
}

func TestStoreRenameIsOneChange(t *testing.T) {
	f := newFixture(t)
	f.writeStore(`{"version":3,"sessions":{}}`)
	if c := f.next(); c != (Change{Store: true}) {
		t.Errorf("got %+v, want Store", c)
	}
	f.quiet("after the rename")

	// In-place writes (an editor, an older hook) count too.
	if err := os.WriteFile(f.layout.StorePath(), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{Store: true}) {
		t.Errorf("got %+v, want Store", c)
	}
}

func TestIgnoredNames(t *testing.T) {
	f := newFixture(t)
	write := func(path string) {
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(f.layout.StoreLockPath())                                     // the store's flock file
	write(filepath.Join(f.layout.StoreDir(), "sessions.json.tmp-1234")) // a temp file left alone
	write(filepath.Join(f.layout.StoreDir(), "other.json"))
	write(filepath.Join(f.layout.LockDir(), "123.json.tmp"))
	write(filepath.Join(f.layout.LockDir(), ".123.json"))
	write(filepath.Join(f.layout.LockDir(), "notes.txt"))
	if err := os.Mkdir(filepath.Join(f.layout.LockDir(), ".staging-abc"), 0o700); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(filepath.Dir(f.config), ".config.toml.swp"))
	f.quiet("files the tray does not read")
	// A chmod of the store changes nothing the tray shows.
	f.writeStore("{}")
	f.next()
	if err := os.Chmod(f.layout.StorePath(), 0o644); err != nil {
		t.Fatal(err)
	}
	f.quiet("chmod")
}

func TestLockDirectories(t *testing.T) {
	f := newFixture(t)
	lock := filepath.Join(f.layout.LockDir(), paths.LockName("/home/u/project", 4242))
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{Locks: true}) {
		t.Errorf("mkdir: got %+v, want Locks", c)
	}
	// meta.json inside the lock is not seen from the parent: the lock
	// holder must create the directory whole (staging dir + rename).
	if err := os.WriteFile(filepath.Join(lock, "meta.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.quiet("a write inside a lock")
	if err := os.RemoveAll(lock); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{Locks: true}) {
		t.Errorf("rmdir: got %+v, want Locks", c)
	}

	// The holder's way: build under a staging name, rename into place.
	staging := filepath.Join(f.layout.LockDir(), ".tmp-"+paths.LockName("/p", 7))
	if err := os.Mkdir(staging, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(staging, filepath.Join(f.layout.LockDir(), paths.LockName("/p", 7))); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{Locks: true}) {
		t.Errorf("rename into place: got %+v, want Locks", c)
	}
}

func TestClaudeSessionFiles(t *testing.T) {
	f := newFixture(t)
	path := filepath.Join(f.layout.LockDir(), "31337.json")
	if err := os.WriteFile(path, []byte(`{"pid":31337}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{ClaudeSessions: true}) {
		t.Errorf("got %+v, want ClaudeSessions", c)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{ClaudeSessions: true}) {
		t.Errorf("remove: got %+v, want ClaudeSessions", c)
	}
}

// TestClaudeFiles: `hud install` in a terminal (settings.json replaced) and
// `hud break snooze` (the break state rewritten) reach the tray; the hook's
// debug log, appended on every event, does not.
func TestClaudeFiles(t *testing.T) {
	f := newFixture(t)
	dir := f.layout.ClaudeDir()
	if err := os.WriteFile(f.layout.DebugLogPath(), []byte("line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.quiet("the debug log")
	tmp := filepath.Join(dir, "settings.json.tmp")
	if err := os.WriteFile(tmp, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "settings.json")); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{Files: true}) {
		t.Errorf("settings.json replaced: got %+v, want Files", c)
	}
	if err := os.WriteFile(filepath.Join(dir, "hud-breaks.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{Files: true}) {
		t.Errorf("hud-breaks.json: got %+v, want Files", c)
	}
}

func TestConfigFile(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(f.config, []byte("[tray]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); c != (Change{Config: true}) {
		t.Errorf("got %+v, want Config", c)
	}
}

// TestBurstOfRealWrites: many writes in a row are all reported, the last
// one included. (How many Changes they make depends on the machine's
// speed; TestDebounce checks the coalescing itself.)
func TestBurstOfRealWrites(t *testing.T) {
	f := newFixture(t)
	const writes = 100
	for i := range writes {
		f.writeStore(fmt.Sprintf(`{"n":%d}`, i))
	}
	lock := filepath.Join(f.layout.LockDir(), paths.LockName("/x", 1))
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Fatal(err)
	}
	var got Change
	n := 0
	for !got.Locks {
		got.merge(f.next())
		n++
	}
	if !got.Store || n > writes+1 {
		t.Errorf("%d writes gave %d Changes, merged %+v", writes, n, got)
	}
	f.quiet("after the burst")
}

// TestSlowReceiverGetsOneMergedChange: while nobody receives, changes pile
// up into one.
func TestSlowReceiverGetsOneMergedChange(t *testing.T) {
	f := newFixture(t)
	f.writeStore("{}")
	if err := os.Mkdir(filepath.Join(f.layout.LockDir(), paths.LockName("/y", 2)), 0o700); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // far past the max delay: both are pending
	if err := os.WriteFile(filepath.Join(f.layout.LockDir(), "99.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if c := f.next(); c != (Change{Store: true, Locks: true, ClaudeSessions: true}) {
		t.Errorf("got %+v, want all three merged", c)
	}
	f.quiet("after the merged change")
}

func TestRemovedDirectoryIsRecreated(t *testing.T) {
	f := newFixture(t)
	f.writeStore("{}")
	f.next()
	if err := os.RemoveAll(f.layout.StoreDir()); err != nil {
		t.Fatal(err)
	}
	var got Change
	for !got.Rescan {
		got.merge(f.next())
	}
	if _, err := os.Stat(f.layout.StoreDir()); err != nil {
		t.Fatalf("store directory not recreated: %v", err)
	}
	// The new directory is watched.
	drain(f.w, silence)
	f.writeStore(`{"version":3}`)
	if c := f.next(); !c.Store {
		t.Errorf("after recreation got %+v, want Store", c)
	}
	if !strings.Contains(f.logs.String(), "was removed") {
		t.Errorf("log does not mention the removal: %q", f.logs)
	}
}

func TestMovedDirectoryIsRecreated(t *testing.T) {
	f := newFixture(t)
	if err := os.Rename(f.layout.LockDir(), f.layout.LockDir()+".old"); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); !c.Rescan {
		t.Errorf("got %+v, want Rescan", c)
	}
	drain(f.w, silence)
	if err := os.Mkdir(filepath.Join(f.layout.LockDir(), paths.LockName("/z", 3)), 0o700); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); !c.Locks {
		t.Errorf("after recreation got %+v, want Locks", c)
	}
}

func TestCloseEndsChanges(t *testing.T) {
	f := newFixture(t)
	f.writeStore("{}") // a pending change must not block Close
	if err := f.w.Close(); err != nil {
		t.Fatal(err)
	}
	for range f.w.Changes() {
	}
	if err := f.w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestNewFailsWhenDirectoryCannotBeCreated(t *testing.T) {
	home := t.TempDir()
	// A file where ~/.capacitor should be.
	if err := os.WriteFile(filepath.Join(home, ".capacitor"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Layout: paths.Layout{Home: home}})
	if err == nil {
		w.Close()
		t.Fatal("New succeeded with ~/.capacitor a file")
	}
	if !strings.Contains(err.Error(), ".capacitor") {
		t.Errorf("error %q does not name the directory", err)
	}
}

// drain discards Changes until none has come for d.
func drain(w *Watcher, d time.Duration) {
	for {
		select {
		case <-w.Changes():
		case <-time.After(d):
			return
		}
	}
}

// Another Claude config directory's sessions/ is followed once a snapshot
// names it: its locks and Claude's files count like the default's. One
// that does not exist is not created, and is watched once it appears.
func TestFollowOtherConfigDirs(t *testing.T) {
	f := newFixture(t)
	work := f.layout.WithConfig(filepath.Join(f.layout.Home, ".claude-work")).LockDir()
	gone := f.layout.WithConfig(filepath.Join(f.layout.Home, ".claude-gone")).LockDir()
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	if !f.w.Follow(f.layout.LockDir(), work, gone) {
		t.Fatal("Follow of two new directories reported nothing new")
	}
	if f.w.Follow(work, gone) {
		t.Error("Follow again reported something new")
	}
	if _, err := os.Stat(gone); err == nil {
		t.Errorf("%s was created; a followed directory must not be", gone)
	}
	if err := os.Mkdir(filepath.Join(work, paths.LockName("/w", 9)), 0o700); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); !c.Locks {
		t.Errorf("a lock in the second config dir: got %+v, want Locks", c)
	}
	if err := os.WriteFile(filepath.Join(work, "9.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); !c.ClaudeSessions {
		t.Errorf("Claude's file in the second config dir: got %+v, want ClaudeSessions", c)
	}
	if strings.Contains(f.logs.String(), ".claude-gone") {
		t.Errorf("a missing followed directory was logged as a problem:\n%s", f.logs)
	}

	// Claude makes the missing one: the next Follow watches it.
	if err := os.MkdirAll(gone, 0o700); err != nil {
		t.Fatal(err)
	}
	if !f.w.Follow(gone) {
		t.Error("Follow of a directory that now exists reported nothing new")
	}
	if err := os.WriteFile(filepath.Join(gone, "10.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); !c.ClaudeSessions {
		t.Errorf("Claude's file in a directory made later: got %+v, want ClaudeSessions", c)
	}
}

// New takes the followed directories up front too.
func TestNewWithLockDirs(t *testing.T) {
	home := t.TempDir()
	l := paths.Layout{Home: home}
	work := l.WithConfig(filepath.Join(home, ".claude-work")).LockDir()
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Layout: l, LockDirs: []string{l.LockDir(), work}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := os.Mkdir(filepath.Join(work, paths.LockName("/w", 9)), 0o700); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-w.Changes():
		if !c.Locks {
			t.Errorf("got %+v, want Locks", c)
		}
	case <-time.After(patience):
		t.Fatal("no Change for a lock in a followed directory")
	}
}

// An agent's log changing is a change: Copilot's abort after a denial
// writes only events.jsonl.
func TestFollowAgentLogs(t *testing.T) {
	f := newFixture(t)
	dir := filepath.Join(f.layout.Home, ".copilot", "session-state", "06fc3013-484c-4fe7-b048-5ed1ec7fdadc")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if !f.w.FollowAgentLogs(dir) {
		t.Fatal("FollowAgentLogs of a new directory reported nothing new")
	}
	if f.w.FollowAgentLogs(dir) {
		t.Error("FollowAgentLogs again reported something new")
	}
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(`{"type":"abort"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); !c.AgentLogs {
		t.Errorf("a write to events.jsonl: got %+v, want AgentLogs", c)
	}
}

// A recorded status line replaced is a change; its temp file is not, and
// the directory is watched once it exists.
func TestFollowStatusLines(t *testing.T) {
	f := newFixture(t)
	dir := f.layout.StatusLineDir()
	if f.w.FollowStatusLines(dir) {
		t.Error("FollowStatusLines of a missing directory reported it watched")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if !f.w.FollowStatusLines(dir) {
		t.Fatal("FollowStatusLines of the new directory reported nothing new")
	}
	if c := classifyStatusLine(filepath.Join(dir, ".s1.json.tmp-123"), fsnotify.Create); c.Any() {
		t.Errorf("a temp file: %+v", c)
	}
	if _, err := resolver.RecordStatusLine(f.layout, resolver.StatusLine{SessionID: "s1", Tokens: 5}); err != nil {
		t.Fatal(err)
	}
	if c := f.next(); !c.StatusLines {
		t.Errorf("a recorded status line: got %+v, want StatusLines", c)
	}
}
