package worksession

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// lockTimeout bounds the wait for the lock; the hook must never hang.
const lockTimeout = 2 * time.Second

// ErrNoSession is returned when the project has no session running.
var ErrNoSession = errors.New("no work session is running in this project")

// ErrSessionExists is returned by Create when a session already runs.
var ErrSessionExists = errors.New("a work session is already running in this project")

// Path is <project>/.claude/session-state.json.
func Path(project string) string {
	return filepath.Join(project, ".claude", "session-state.json")
}

// Files reads and writes the session files of every project. One lock,
// ~/.claude/hud-work-session.lock, serialises the writers (the hooks of
// every session and the CLI), so nothing is left in the projects but the
// state file itself.
type Files struct {
	Layout paths.Layout
}

// LockPath is the writers' flock file.
func (f Files) LockPath() string { return filepath.Join(f.Layout.ClaudeDir(), "hud-work-session.lock") }

// Load reads the project's session; ErrNoSession when there is none.
func Load(project string) (*State, error) {
	data, _, err := safefile.Read(Path(project), safefile.MaxRead, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoSession
	}
	if err != nil {
		return nil, fmt.Errorf("work session: %w", err)
	}
	s, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Path(project), err)
	}
	return s, nil
}

// Create writes a new session; ErrSessionExists if one runs already.
func (f Files) Create(project string, s *State) error {
	return f.locked(func() error {
		if _, err := os.Lstat(Path(project)); err == nil {
			return ErrSessionExists
		}
		return save(project, s)
	})
}

// Update loads the project's session, runs fn and saves the result. A
// file that does not parse is left as it is, and reported.
func (f Files) Update(project string, fn func(*State) error) error {
	return f.locked(func() error {
		s, err := Load(project)
		if err != nil {
			return err
		}
		before := string(s.Encode())
		if err := fn(s); err != nil {
			return err
		}
		if string(s.Encode()) == before {
			return nil
		}
		return save(project, s)
	})
}

// Remove deletes the project's session and returns what it held (nil if
// the file did not parse: stop removes it anyway).
func (f Files) Remove(project string) (*State, error) {
	var s *State
	err := f.locked(func() error {
		var err error
		s, err = Load(project)
		if errors.Is(err, ErrNoSession) {
			return err
		}
		if rmErr := os.Remove(Path(project)); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			return fmt.Errorf("removing work session: %w", rmErr)
		}
		// Temp files left by a writer killed midway (safefile's
		// ".<name>.tmp-*"), which no later write would clean.
		path := Path(project)
		stale, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*"))
		for _, tmp := range stale {
			os.Remove(tmp)
		}
		return nil
	})
	return s, err
}

func (f Files) locked(fn func() error) error {
	unlock, err := safefile.Lock(f.LockPath(), lockTimeout)
	if err != nil {
		return fmt.Errorf("work session: %w", err)
	}
	defer unlock()
	return fn()
}

// save replaces the session file atomically but without fsync
// (safefile.Replace): the hook rewrites it on every event of the project,
// an fsync would wait on the disk on Claude's hot path, and the file is
// ephemeral: losing it to a crash loses one work session's timer. The
// project's .claude is created like a project folder (0755), not like
// hud's private ones, and must be a real directory: a repository's
// .claude linked elsewhere does not get written through. The file is
// replaced by rename (a planted link is replaced, not followed) and is
// 0600 like everything hud writes.
func save(project string, s *State) error {
	path := Path(project)
	if err := safefile.RealDir(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("saving work session: %w", err)
	}
	if err := safefile.Replace(path, s.Encode(), 0o600); err != nil {
		return fmt.Errorf("saving work session: %w", err)
	}
	return nil
}
