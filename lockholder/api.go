package lockholder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/resolver"
)

// Ensure makes sure a detached holder keeps a lock for the Claude process
// claude, whose session sessionID runs in path (already normalized with
// paths.Normalize). It returns quickly and never waits for the
// holder. When the process already has a lock it only brings the lock's
// session id up to date (after /clear a new session runs in the same
// process) and starts a new holder if the old one died.
// holderExe is the executable to start in hold mode (normally the hook's own
// binary, from os.Executable).
//
// Races between hook events are settled by the kernel, never by waiting:
// the atomic mkdir of the lock directory picks the one event that creates
// the lock, and a non-blocking flock on its pid file picks the one that
// starts its holder (see startHolder).
func Ensure(l paths.Layout, claude proc.Process, path, sessionID, holderExe string) error {
	if claude.PID <= 0 {
		return fmt.Errorf("ensuring lock: bad claude pid %d", claude.PID)
	}
	if path == "" {
		return errors.New("ensuring lock: empty path")
	}
	if claude.Started == 0 {
		p, err := proc.Inspect(claude.PID)
		if err != nil {
			return fmt.Errorf("ensuring lock: %w", err)
		}
		claude = p
	}
	sessions := l.LockDir()
	existing, err := locksOf(sessions, claude.PID)
	if err != nil {
		return fmt.Errorf("ensuring lock: %w", err)
	}
	for _, dir := range existing {
		meta, err := readMeta(dir)
		switch {
		case err != nil && isYoung(dir, time.Now()):
			// A racing Ensure made the directory and is writing meta.json;
			// it starts the holder too.
			return nil
		case err != nil:
			// Left half-made by a hook that died: adopt it.
			meta = resolver.LockMeta{Path: path, Created: time.Now().Unix()}
			return keepLock(l.Home, dir, meta, claude, sessionID, holderExe, true)
		case meta.ProcStarted != 0 && !proc.SameStart(meta.ProcStarted, claude.Started):
			// An earlier process that had the same pid: stale.
			if err := removeLock(dir); err != nil {
				return fmt.Errorf("ensuring lock: %w", err)
			}
		default:
			return keepLock(l.Home, dir, meta, claude, sessionID, holderExe, false)
		}
	}
	return createLock(l, claude, path, sessionID, holderExe)
}

// Dir is the lock directory of the Claude process pid whose session
// runs in path (normalized): what Ensure makes when it takes the lock,
// computed without looking.
func Dir(l paths.Layout, path string, pid int) string {
	return filepath.Join(l.LockDir(), paths.LockName(path, pid))
}

// createLock makes a new lock directory for claude and starts its holder.
func createLock(l paths.Layout, claude proc.Process, path, sessionID, holderExe string) error {
	sessions := l.LockDir()
	// ~/.claude/sessions is Claude Code's; create it only if it is missing.
	if err := os.MkdirAll(sessions, 0o700); err != nil {
		return fmt.Errorf("creating lock directory: %w", err)
	}
	dir := Dir(l, path, claude.PID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil // a racing Ensure won the mkdir and does the rest
		}
		return fmt.Errorf("creating lock: %w", err)
	}
	meta := resolver.LockMeta{
		Path:    path,
		Created: time.Now().Unix(),
	}
	return keepLock(l.Home, dir, meta, claude, sessionID, holderExe, true)
}

// keepLock brings an existing lock's files up to date and starts a holder
// when none holds it. fresh says the directory was just made (or found
// without meta.json): every file is written, the pid file first, so a lock
// is complete once its meta.json exists.
func keepLock(home, dir string, meta resolver.LockMeta, claude proc.Process, sessionID, holderExe string, fresh bool) error {
	rewrite := fresh
	if sessionID != "" && meta.SessionID != sessionID {
		meta.SessionID = sessionID
		rewrite = true
	}
	if _, err := os.Lstat(filepath.Join(dir, pidFile)); fresh || err != nil {
		// The pid file also carries the holder's flock: it must exist.
		if err := writePID(dir, claude.PID); err != nil {
			return fmt.Errorf("writing lock: %w", err)
		}
	}
	if rewrite {
		meta.PID = claude.PID
		meta.ProcStarted = claude.Started
		if err := writeMeta(dir, meta); err != nil {
			return fmt.Errorf("writing lock: %w", err)
		}
	}
	return startHolder(home, dir, claude, holderExe)
}

// Sweep removes stale lock directories (dead pid, or pid reused by another
// process) and returns how many it removed. It never touches Claude Code's
// own <pid>.json files, nor anything else whose name is not a lock's.
// A lock without a readable meta.json is judged by the pid in its name,
// and left alone for a few seconds after it was made: an Ensure may be
// writing it right now.
func Sweep(l paths.Layout) (int, error) {
	entries, err := safefile.ListDir(l.LockDir(), "locks")
	if err != nil {
		return 0, fmt.Errorf("sweeping: %w", err)
	}
	now := time.Now()
	removed := 0
	var errs []error
	for _, e := range entries {
		_, pid, err := paths.ParseLockName(e.Name())
		if err != nil || !e.IsDir() {
			continue
		}
		dir := filepath.Join(l.LockDir(), e.Name())
		if !isStale(dir, pid, now) {
			continue
		}
		if err := removeLock(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("sweeping locks: %w", err)
	}
	return removed, nil
}

// isStale reports whether the lock directory dir, named for pid, outlived
// its process.
func isStale(dir string, pid int, now time.Time) bool {
	meta, err := readMeta(dir)
	if err != nil {
		if isYoung(dir, now) {
			return false
		}
		return !proc.Alive(pid, 0)
	}
	started := meta.ProcStarted
	if meta.PID != pid {
		started = 0 // junk meta: trust only the name
	}
	return !proc.Alive(pid, started)
}

// HasLiveLock reports whether the Claude process has a lock directory (for
// any path) whose meta matches the process's start time and whose holder
// is alive.
func HasLiveLock(l paths.Layout, claude proc.Process) bool {
	if claude.PID <= 0 {
		return false
	}
	if claude.Started == 0 {
		p, err := proc.Inspect(claude.PID)
		if err != nil {
			return false
		}
		claude = p
	}
	dirs, err := locksOf(l.LockDir(), claude.PID)
	if err != nil {
		return false
	}
	for _, dir := range dirs {
		if isLiveLock(dir, claude) {
			return true
		}
	}
	return false
}

// isLiveLock reports whether dir is a lock of claude (its meta says its
// start time) that a live holder holds.
func isLiveLock(dir string, claude proc.Process) bool {
	meta, err := readMeta(dir)
	return err == nil && proc.SameStart(meta.ProcStarted, claude.Started) && holderAlive(dir)
}

// HasLiveLockAt is HasLiveLock looking first at the lock directory
// Ensure would make for path: the common case (the session has not
// changed directory since its lock was made), which spares the hook the
// listing of the sessions directory on every prompt.
func HasLiveLockAt(l paths.Layout, claude proc.Process, path string) bool {
	if claude.PID > 0 && claude.Started != 0 && path != "" {
		if isLiveLock(Dir(l, path, claude.PID), claude) {
			return true
		}
	}
	return HasLiveLock(l, claude)
}
