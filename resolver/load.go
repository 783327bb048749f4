package resolver

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// ProcessStart reports the start time of process pid in clock ticks since
// boot (Linux /proc/<pid>/stat field 22), with running false when the
// process is gone. ticks is 0 where the OS gives no such figure or the
// process may not be inspected. The real one wraps proc.Inspect.
type ProcessStart func(pid int) (ticks uint64, running bool)

// maxSmallFile bounds a lock's meta.json and Claude's <pid>.json, each a
// few hundred bytes: a reader never waits on a FIFO or reads a device
// planted at their names.
const maxSmallFile = 64 << 10

// LoadSnapshot reads the store, then the lock directories and Claude
// Code's own session files of every config directory it follows
// (FollowedConfigDirs). Files that vanish while it reads (a holder
// removing its lock, Claude exiting) are skipped, as is anything it cannot
// parse in a lock directory. A config-dirs.json it cannot read costs only
// the directories it names (hud doctor reports it), never the others.
//
// A missing store is an empty one. A store that cannot be decoded returns
// an error wrapping store.ErrCorrupt, together with a snapshot holding an
// empty store and the locks and Claude sessions that could be read, so a
// caller that wants to keep going can.
//
// procStart checks that a Claude session file's pid still names the
// process that wrote it (its procStart): files of dead or reused pids are
// dropped. A nil procStart keeps every file.
//
// logs gives each coding agent's own log, read for what its hooks miss
// and for its runway (LoadTurnEnds, LoadContexts); nil reads none.
func LoadSnapshot(l paths.Layout, procStart ProcessStart, logs AgentLogs) (Snapshot, error) {
	snap := Snapshot{Store: store.New()}
	var errs []error
	st, err := store.Load(l.StorePath())
	if err != nil {
		errs = append(errs, err)
	} else {
		snap.Store = st
	}
	list, _ := LoadConfigDirList(l)
	followed := FollowedConfigDirs(l, list, snap.Store)
	for _, dir := range followed {
		sessions := l.WithConfig(dir).LockDir()
		snap.LockDirs = append(snap.LockDirs, sessions)
		locks, err := LoadLocks(sessions)
		if err != nil {
			errs = append(errs, err)
		}
		snap.Locks = append(snap.Locks, locks...)
		claude, err := LoadClaudeSessions(sessions, procStart)
		if err != nil {
			errs = append(errs, err)
		}
		snap.Claude = append(snap.Claude, claude...)
	}
	snap.TurnEnds, snap.AgentLogDirs = LoadTurnEnds(l, snap.Store, logs)
	lines := LoadStatusLines(l)
	var agentAccounts []Account
	snap.Contexts, agentAccounts = LoadContexts(l, snap.Store, lines, logs)
	snap.Accounts = append(Accounts(l, followed, lines), agentAccounts...)
	return snap, errors.Join(errs...)
}

// LoadLocks lists the lock directories in dir (~/.claude/sessions) with
// their meta.json. A lock being created (no meta.json yet) or removed, and
// anything whose name, meta or pid does not add up, is skipped: the fresh
// record fallback covers a session in those moments. A missing dir holds
// no locks.
func LoadLocks(dir string) ([]Lock, error) {
	entries, err := safefile.ListDir(dir, "locks")
	if err != nil {
		return nil, err
	}
	var locks []Lock
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		_, pid, err := paths.ParseLockName(e.Name())
		if err != nil {
			continue
		}
		lockDir := filepath.Join(dir, e.Name())
		b, _, err := safefile.Read(filepath.Join(lockDir, "meta.json"), maxSmallFile, safefile.NoFollow)
		if err != nil {
			continue
		}
		var meta LockMeta
		if err := meta.UnmarshalJSON(b); err != nil || meta.PID != pid || meta.Path == "" {
			continue
		}
		locks = append(locks, Lock{Dir: lockDir, LockMeta: meta})
	}
	return locks, nil
}

// LoadClaudeSessions reads Claude Code's <pid>.json files in dir, keeping
// those whose process is still the one that wrote them (see LoadSnapshot).
// Lock directories and anything unparseable are skipped; a missing dir
// holds none.
func LoadClaudeSessions(dir string, procStart ProcessStart) ([]ClaudeSession, error) {
	entries, err := safefile.ListDir(dir, "Claude sessions")
	if err != nil {
		return nil, err
	}
	var out []ClaudeSession
	for _, e := range entries {
		pid, ok := claudeSessionPID(e)
		if !ok {
			continue
		}
		b, _, err := safefile.Read(filepath.Join(dir, e.Name()), maxSmallFile, safefile.NoFollow)
		if err != nil {
			continue
		}
		var c ClaudeSession
		if json.Unmarshal(b, &c) != nil || c.PID != pid || c.SessionID == "" {
			continue
		}
		if procStart != nil && !sameStart(c, procStart) {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// claudeSessionPID accepts regular files named <pid>.json.
func claudeSessionPID(e fs.DirEntry) (int, bool) {
	if !e.Type().IsRegular() {
		return 0, false
	}
	base, ok := strings.CutSuffix(e.Name(), ".json")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(base)
	if err != nil || pid <= 0 || strconv.Itoa(pid) != base {
		return 0, false
	}
	return pid, true
}

// sameStart reports whether c's process still runs and, where both sides
// know a start time in clock ticks, started when c says it did.
func sameStart(c ClaudeSession, procStart ProcessStart) bool {
	ticks, running := procStart(c.PID)
	if !running {
		return false
	}
	want, err := strconv.ParseUint(c.ProcStart, 10, 64)
	if ticks == 0 || err != nil {
		return true
	}
	return ticks == want
}
