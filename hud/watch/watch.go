package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/fsnotify/fsnotify"
)

// Change says which inputs may have changed since the last Change. Several
// bits may be set at once; the receiver re-reads what they name.
type Change struct {
	// Store: sessions.json was replaced or written.
	Store bool
	// Locks: a lock directory (<12hex>-<pid>.lock) appeared or went away.
	Locks bool
	// ClaudeSessions: one of Claude Code's <pid>.json files changed.
	ClaudeSessions bool
	// Config: the settings file changed (only with Options.ConfigPath).
	Config bool
	// Files: one of Options.Files changed.
	Files bool
	// AgentLogs: another agent's session log changed (FollowAgentLogs).
	AgentLogs bool
	// StatusLines: a session's recorded status line changed
	// (FollowStatusLines): its context, its account's usage.
	StatusLines bool
	// Rescan: events may have been lost; re-read everything.
	Rescan bool
}

// Any reports whether c names anything at all.
func (c Change) Any() bool {
	return c.Store || c.Locks || c.ClaudeSessions || c.Config || c.Files || c.AgentLogs || c.StatusLines || c.Rescan
}

// merge adds the bits of o to c.
func (c *Change) merge(o Change) {
	c.Store = c.Store || o.Store
	c.Locks = c.Locks || o.Locks
	c.ClaudeSessions = c.ClaudeSessions || o.ClaudeSessions
	c.Files = c.Files || o.Files
	c.Config = c.Config || o.Config
	c.AgentLogs = c.AgentLogs || o.AgentLogs
	c.StatusLines = c.StatusLines || o.StatusLines
	c.Rescan = c.Rescan || o.Rescan
}

// Defaults for Options.
const (
	// DefaultQuiet is the trailing debounce. The hook's write is a burst
	// of events well under a millisecond apart; 5 ms of quiet closes it
	// while leaving most of the 20 ms budget to resolve and draw.
	DefaultQuiet = 5 * time.Millisecond
	// DefaultMaxDelay bounds how long a steady stream of events can hold a
	// Change back.
	DefaultMaxDelay = 25 * time.Millisecond
)

// Options configures a Watcher.
type Options struct {
	// Layout names the store and the lock directory.
	Layout paths.Layout
	// Files are the other files whose changes the caller shows (Claude
	// Code's settings, the break reminders' files), each named by the
	// package that owns it; a change to one comes as Change.Files.
	// Everything else in their directories (history, transcripts, the
	// hook's debug log on every run) is noise and ignored.
	Files []string
	// LockDirs are more sessions/ directories to watch besides Layout's:
	// those of the other Claude config directories (see Follow).
	LockDirs []string
	// ConfigPath, if set, is the settings file; its directory is watched
	// too and changes to the file come as Change.Config. The directory is
	// created (0700) if missing.
	ConfigPath string
	// Quiet is the trailing debounce; 0 means DefaultQuiet.
	Quiet time.Duration
	// MaxDelay bounds the delay from the first event of a burst to its
	// Change; 0 means DefaultMaxDelay.
	MaxDelay time.Duration
	// Logf reports watcher errors and recoveries; nil discards them.
	Logf func(format string, args ...any)
}

// Watcher delivers Changes on a channel until closed.
type Watcher struct {
	opts    Options
	fsw     *fsnotify.Watcher
	changes chan Change
	done    chan struct{}
	wg      sync.WaitGroup

	closeOnce sync.Once
	closeErr  error

	mu   sync.Mutex   // guards dirs, which Follow adds to
	dirs []watchedDir // append-only
}

// watchedDir is one directory the Watcher watches and how it names the
// files it cares about.
type watchedDir struct {
	path     string
	classify func(name string, op fsnotify.Op) Change
	// followed marks a sessions/ directory of another config directory:
	// watched once it exists, never created (a config directory that
	// was removed stays removed).
	followed bool
}

// New creates the watched directories if they are missing (0700; fsnotify
// can only watch what exists), starts watching and returns the Watcher.
// The first Change comes only after something changes: read the initial
// state yourself after New returns, so nothing written in between is
// missed.
func New(opts Options) (*Watcher, error) {
	w, err := newWatcher(opts)
	if err != nil {
		return nil, err
	}
	w.start(w.fsw.Events, w.fsw.Errors)
	return w, nil
}

// newWatcher sets up the directories and the fsnotify watcher without
// starting the loop; tests start it on channels of their own.
func newWatcher(opts Options) (*Watcher, error) {
	if opts.Quiet <= 0 {
		opts.Quiet = DefaultQuiet
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = DefaultMaxDelay
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	store := opts.Layout.StorePath()
	dirs := []watchedDir{
		{path: filepath.Dir(store), classify: classifyNames(Change{Store: true}, filepath.Base(store))},
		{path: opts.Layout.LockDir(), classify: classifyLockDir},
	}
	dirs = append(dirs, fileDirs(opts.Files)...)
	for _, d := range opts.LockDirs {
		if d != opts.Layout.LockDir() {
			dirs = append(dirs, watchedDir{path: d, classify: classifyLockDir, followed: true})
		}
	}
	if opts.ConfigPath != "" {
		dirs = append(dirs, watchedDir{path: filepath.Dir(opts.ConfigPath),
			classify: classifyNames(Change{Config: true}, filepath.Base(opts.ConfigPath))})
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("starting the file watcher: %w", explain(err))
	}
	w := &Watcher{
		opts:    opts,
		fsw:     fsw,
		dirs:    dirs,
		changes: make(chan Change),
		done:    make(chan struct{}),
	}
	for _, d := range dirs {
		if err := w.addDir(d); err != nil {
			fsw.Close()
			return nil, err
		}
	}
	return w, nil
}

// fileDirs groups files by directory: one watch per directory, which
// reports a change to any of its files.
func fileDirs(files []string) []watchedDir {
	names := map[string][]string{}
	var order []string
	for _, f := range files {
		dir := filepath.Dir(f)
		if names[dir] == nil {
			order = append(order, dir)
		}
		names[dir] = append(names[dir], filepath.Base(f))
	}
	dirs := make([]watchedDir, 0, len(order))
	for _, dir := range order {
		dirs = append(dirs, watchedDir{path: dir, classify: classifyNames(Change{Files: true}, names[dir]...)})
	}
	return dirs
}

// Follow watches the sessions/ directories lockDirs too (those of every
// config directory a snapshot followed, resolver.Snapshot.LockDirs), and
// reports whether it started watching one: what changed in it before now
// was not seen, so the caller reads again. One that does not exist yet is
// not created; a later Follow (after the next change anywhere) watches it
// once Claude or the hook has made it. Safe from any goroutine.
func (w *Watcher) Follow(lockDirs ...string) bool {
	return w.follow(classifyLockDir, lockDirs)
}

// FollowAgentLogs watches the directories of other agents' session logs
// (resolver.Snapshot.AgentLogDirs): a denial or an Esc there changes only
// the log. It reports whether it began watching one it did not before.
func (w *Watcher) FollowAgentLogs(dirs ...string) bool {
	return w.follow(classifyAgentLog, dirs)
}

// FollowStatusLines watches the directory of the recorded status lines
// (paths.Layout.StatusLineDir): `hud statusline` writes there only when
// a figure changed (or once a minute), and only there. One that does not
// exist yet is watched from a later call.
func (w *Watcher) FollowStatusLines(dir string) bool {
	return w.follow(classifyStatusLine, []string{dir})
}

func (w *Watcher) follow(classify func(string, fsnotify.Op) Change, lockDirs []string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	watched := map[string]bool{}
	for _, p := range w.fsw.WatchList() {
		watched[p] = true
	}
	added := false
	for _, dir := range lockDirs {
		if watched[dir] {
			continue
		}
		d := watchedDir{path: dir, classify: classify, followed: true}
		if !slices.ContainsFunc(w.dirs, func(d watchedDir) bool { return d.path == dir }) {
			w.dirs = append(w.dirs, d)
		}
		err := w.addDir(d)
		switch {
		case err == nil:
			added = true
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fsnotify.ErrClosed):
			w.opts.Logf("watch: %v", err)
		}
	}
	return added
}

// watched returns the directories watched now.
func (w *Watcher) watched() []watchedDir {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clip(w.dirs)
}

// start runs the loop on the given event and error streams.
func (w *Watcher) start(events <-chan fsnotify.Event, errs <-chan error) {
	w.wg.Add(1)
	go w.loop(events, errs)
}

// Changes delivers coalesced Changes. It is unbuffered: while the receiver
// is busy, new events merge into the pending Change, so nothing is lost
// and the watcher never blocks the kernel queue. Closed by Close.
func (w *Watcher) Changes() <-chan Change { return w.changes }

// Close stops watching and closes the Changes channel. It is safe to call
// more than once and from any goroutine.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.done)
		w.closeErr = w.fsw.Close()
		w.wg.Wait()
	})
	return w.closeErr
}

// addDir creates d if needed (unless followed) and watches it.
func (w *Watcher) addDir(d watchedDir) error {
	if !d.followed {
		if err := os.MkdirAll(d.path, 0o700); err != nil {
			return fmt.Errorf("creating %s to watch it: %w", d.path, err)
		}
	}
	if err := w.fsw.Add(d.path); err != nil {
		return fmt.Errorf("watching %s: %w", d.path, explain(err))
	}
	return nil
}

// rewatch makes sure every directory exists and is watched, after an error
// or after one was removed. fsnotify drops the watch of a removed
// directory; a recreated one needs a new Add.
func (w *Watcher) rewatch() {
	watched := make(map[string]bool)
	for _, p := range w.fsw.WatchList() {
		watched[p] = true
	}
	for _, d := range w.watched() {
		if watched[d.path] {
			if _, err := os.Stat(d.path); err == nil {
				continue
			}
			// Watched but gone: the removal event has not been handled yet.
			_ = w.fsw.Remove(d.path)
		}
		err := w.addDir(d)
		if err != nil && !errors.Is(err, fsnotify.ErrClosed) && !(d.followed && errors.Is(err, fs.ErrNotExist)) {
			w.opts.Logf("watch: %v", err)
		}
	}
}
