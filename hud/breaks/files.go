package breaks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// lockTimeout bounds the wait for the state lock. Every holder keeps it for
// a read and a small write, so a longer wait means a stuck peer; the hook
// must not hang Claude behind it.
const lockTimeout = 2 * time.Second

// Files are the break reminder files under one home directory.
type Files struct {
	Layout paths.Layout
	// Logf reports files that were replaced because they were corrupt.
	Logf func(format string, args ...any)
}

// StatePath is Vibe Check's ~/.claude/vibe-check-state.json.
func (f Files) StatePath() string {
	return filepath.Join(f.Layout.ClaudeDir(), "vibe-check-state.json")
}

// LockPath is the flock file every writer of the state takes first.
func (f Files) LockPath() string { return f.StatePath() + ".lock" }

// PrefsPath is ~/.claude/hud-breaks.json, the person's snooze, skip and
// pause.
func (f Files) PrefsPath() string { return filepath.Join(f.Layout.ClaudeDir(), "hud-breaks.json") }

// Shown are the files whose changes the menu shows: a reminder taken,
// snoozed or paused from a terminal.
func (f Files) Shown() []string { return []string{f.StatePath(), f.PrefsPath()} }

// Txn is the content of both files while the lock is held.
type Txn struct {
	State State
	// Loaded is false when the state file was missing or corrupt and State
	// is a fresh one.
	Loaded bool
	Prefs  Prefs
}

// Update takes the lock, loads both files, runs fn and writes back what fn
// changed (compared with what was read), atomically but without fsync (the
// hook does this on every prompt; Vibe Check's own save_state does not
// fsync either). A missing or corrupt state file
// is replaced with a fresh state, saved, as Vibe Check's load_state does.
func (f Files) Update(now time.Time, fn func(*Txn) error) error {
	return f.update(now, true, fn)
}

// UpdateState is Update for a change of the timers alone: the preferences
// are neither read nor written (fn sees none). The hook records a prompt
// and the end of an answer this way, without reading the person's
// preferences file on every one.
func (f Files) UpdateState(now time.Time, fn func(*Txn) error) error {
	return f.update(now, false, fn)
}

func (f Files) update(now time.Time, withPrefs bool, fn func(*Txn) error) error {
	unlock, err := safefile.Lock(f.LockPath(), lockTimeout)
	if err != nil {
		return fmt.Errorf("break state: %w", err)
	}
	defer unlock()

	txn := Txn{}
	txn.State, txn.Loaded = f.loadState(now)
	if withPrefs {
		txn.Prefs = f.loadPrefs()
	}
	origState := txn.State.Encode()
	// The preferences are compared as values, not as JSON: encoding/json
	// builds its encoder for a type by reflection the first time it meets
	// it, which the hook would pay on every prompt, and the prompt almost
	// never changes them.
	origPrefs := txn.Prefs.clone()

	if err := fn(&txn); err != nil {
		return err
	}
	if data := txn.State.Encode(); !txn.Loaded || string(data) != string(origState) {
		if err := safefile.Replace(f.StatePath(), data, 0o600); err != nil {
			return fmt.Errorf("saving break state: %w", err)
		}
	}
	if withPrefs && !txn.Prefs.equal(origPrefs) {
		if err := safefile.Replace(f.PrefsPath(), encodePrefs(txn.Prefs), 0o600); err != nil {
			return fmt.Errorf("saving break preferences: %w", err)
		}
	}
	return nil
}

// Read loads both files without the lock and without repairing anything,
// for a quick look (hud break status, the tray's menu). The atomic writes
// mean it never sees half a file.
func (f Files) Read(now time.Time) Txn {
	var txn Txn
	txn.State, txn.Loaded = f.loadState(now)
	txn.Prefs = f.loadPrefs()
	return txn
}

// The state and preference files are shared with Vibe Check and read on
// the hook's path: bounded, and a FIFO or a device at their name is refused
// rather than waited on (a person's own link to them is followed).
func (f Files) loadState(now time.Time) (State, bool) {
	data, _, err := safefile.Read(f.StatePath(), safefile.MaxRead, safefile.Follow)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			f.logf("breaks: reading %s: %v; starting fresh", f.StatePath(), err)
		}
		return Fresh(now), false
	}
	s, err := DecodeState(data)
	if err != nil {
		f.logf("breaks: %s: %v; starting fresh", f.StatePath(), err)
		return Fresh(now), false
	}
	return s, true
}

func (f Files) loadPrefs() Prefs {
	var p Prefs
	data, _, err := safefile.Read(f.PrefsPath(), safefile.MaxRead, safefile.Follow)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			f.logf("breaks: reading %s: %v", f.PrefsPath(), err)
		}
		return p
	}
	if err := json.Unmarshal(data, &p); err != nil {
		f.logf("breaks: %s: %v; ignoring it", f.PrefsPath(), err)
		return Prefs{}
	}
	return p
}

func encodePrefs(p Prefs) []byte {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("breaks: encoding prefs: %v", err))
	}
	return append(data, '\n')
}

func (f Files) logf(format string, args ...any) {
	if f.Logf != nil {
		f.Logf(format, args...)
	}
}
