package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/resolver"
)

// Sources are what Follow reads, as the tray does.
type Sources struct {
	Layout paths.Layout
	// Logs reads other agents' own logs (hud/agent/registry.Logs).
	Logs resolver.AgentLogs
	// Keep is how long the ledger is kept (DefaultKeep when 0).
	Keep time.Duration
	Now  func() time.Time
	Logf func(format string, args ...any)
	// OwnPID, when set, is the caller's own agent process (a lock
	// holder's Claude): once ctx ends, Follow goes on until that session
	// is recorded ended (at most lingerMax), so the last holder to leave
	// still writes its end.
	OwnPID int
}

// recorderLock is the flock one recorder at a time holds.
const recorderLock = "recorder.lock"

// lingerMax bounds how long Follow goes on after ctx ends.
const lingerMax = 10 * time.Second

// Follow records this machine's sessions while ctx lives, if no other
// process does: it waits for the recorder's flock (handed over the moment
// its holder exits), then follows the store, the lock directories and
// Claude's own session files as the tray does, appending an entry for
// each change. It returns when ctx ends (and, past that, as Own says).
func Follow(ctx context.Context, src Sources) error {
	dir := src.Layout.LedgerDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the ledger: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, recorderLock), os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("the ledger's recorder lock: %w", err)
	}
	got := make(chan error, 1)
	go func() {
		// flock has no timeout and ctx cannot stop it: a caller whose ctx
		// ends first exits soon after (a lock holder), which releases it.
		got <- flockRetry(int(f.Fd()))
	}()
	select {
	case <-ctx.Done():
		return nil
	case err := <-got:
		if err != nil {
			f.Close()
			return fmt.Errorf("the ledger's recorder lock: %w", err)
		}
	}
	defer f.Close() // releases the flock
	return src.record(ctx, dir)
}

func flockRetry(fd int) error {
	for {
		err := unix.Flock(fd, unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func (src Sources) now() time.Time {
	if src.Now != nil {
		return src.Now()
	}
	return time.Now()
}

func (src Sources) logf(format string, args ...any) {
	if src.Logf != nil {
		src.Logf(format, args...)
	}
}

// record is the recorder's loop, the flock held.
func (src Sources) record(ctx context.Context, dir string) error {
	layout := src.Layout
	first, _ := resolver.LoadSnapshot(layout, proc.StartTicks, src.Logs)
	w, err := watch.New(watch.Options{Layout: layout, LockDirs: first.LockDirs, Logf: src.Logf})
	if err != nil {
		return fmt.Errorf("the ledger's recorder: %w", err)
	}
	defer w.Close()

	start := src.now()
	if n, err := Prune(dir, start, src.keep()); err != nil || n > 0 {
		src.logf("ledger: pruned %d day files (%v)", n, err)
	}
	prior, bad, err := ReadFor(dir, start, start)
	if err != nil || bad > 0 {
		src.logf("ledger: read back with %d bad lines (%v)", bad, err)
	}
	r := NewRecorder(prior, func(e Entry) bool { return e.Host == "" })
	r.resumed(prior)

	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var linger <-chan time.Time
	done := ctx.Done()
	pruned := start
	own := ""
	for {
		now := src.now()
		live, next := src.observe(r, w, now, dir, &own)
		if done == nil && !live[own] {
			return nil
		}
		if now.Sub(pruned) > 24*time.Hour {
			Prune(dir, now, src.keep())
			pruned = now
		}
		timer.Stop()
		if !next.IsZero() {
			timer.Reset(max(0, next.Sub(now)))
		}
		select {
		case <-done:
			done, linger = nil, time.After(lingerMax)
		case <-linger:
			return nil
		case _, ok := <-w.Changes():
			if !ok {
				return fmt.Errorf("the ledger's recorder: the watcher stopped")
			}
		case <-timer.C:
		}
	}
}

func (src Sources) keep() time.Duration {
	if src.Keep > 0 {
		return src.Keep
	}
	return DefaultKeep
}

// observe reads everything afresh, as the tray does on a change, and
// appends what changed. It returns the live sessions' keys and when the
// picture next changes by the clock alone.
// own is set to the key of the session of src.OwnPID while it shows.
func (src Sources) observe(r *Recorder, w *watch.Watcher, now time.Time, dir string, own *string) (map[string]bool, time.Time) {
	layout := src.Layout
	snap, _ := resolver.LoadSnapshot(layout, proc.StartTicks, src.Logs)
	if w.Follow(snap.LockDirs...) {
		snap, _ = resolver.LoadSnapshot(layout, proc.StartTicks, src.Logs)
	}
	w.FollowAgentLogs(snap.AgentLogDirs...)
	w.FollowStatusLines(layout.StatusLineDir())
	sessions := resolver.ResolveAll(snap, now, proc.Alive)
	views := view.All(sessions)
	view.LoadActivity(views, layout)
	if err := Append(dir, r.Observe(now, views)...); err != nil {
		src.logf("ledger: %v", err)
	}
	live := make(map[string]bool, len(views))
	for i := range views {
		key := KeyOf(&views[i])
		live[key] = true
		if src.OwnPID != 0 && views[i].PID == src.OwnPID {
			*own = key
		}
	}
	return live, resolver.NextChange(sessions, now)
}

// Recording says whether a process records this machine's sessions now
// (holds the recorder's flock).
func Recording(l paths.Layout) bool {
	return safefile.Held(filepath.Join(l.LedgerDir(), recorderLock))
}
