package hook

import (
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

const (
	// endedMemory is how long the id of an ended session is remembered.
	// Async hooks have no ordering: a PostToolUse can land after the
	// SessionEnd and must not bring the record back.
	endedMemory = 60 * time.Second
)

// update is what applying one event did to the store.
type update struct {
	// Before and After are the session's record before and after the
	// event; nil for none.
	Before, After *store.Record
	// Dropped says why the event was ignored; empty when it was applied.
	Dropped string
	// Replaced lists the sessions that the event's Claude process ran
	// before this one (the id /clear ended), removed now.
	Replaced []string
}

// applyEvent applies ev to the store table: the state machine for the
// session's record, the surroundings the hook observed, the memory of
// ended sessions, and the 24-hour bound. It touches nothing outside its
// arguments, so it is tested like the state machine.
func applyEvent(t *store.Table, ev *Event, obs observation, now time.Time) update {
	at := store.At(now)
	for id, ended := range t.Ended {
		// One dated ahead by more than the memory itself was written under
		// a wrong clock, or by hand: kept, it would silence the id for good.
		if age := now.Sub(ended.Time); age >= endedMemory || age <= -endedMemory {
			delete(t.Ended, id)
		}
	}
	id := ev.SessionID
	if ev.HookEventName == EventSessionStart {
		// `claude --continue` right after /exit reuses the id.
		delete(t.Ended, id)
	} else if _, ended := t.Ended[id]; ended {
		return update{Dropped: "the session ended less than a minute ago"}
	}

	// A record that no longer decodes (edited by hand) is replaced.
	before, _ := t.Get(id)
	if before == nil && !knownEvent(ev.HookEventName) {
		// An event this version does not know is a heartbeat: it keeps a
		// session fresh but never starts one it knows nothing about.
		return update{Dropped: "an unknown event for a session not in the store"}
	}
	u := update{Before: before}
	after := Transition(before, ev, now)
	if after == nil {
		t.Remove(id)
		t.Ended[id] = at
	} else {
		if after.CWD == "" {
			after.CWD = obs.CWD
		}
		if after.CWD == "" {
			// Readers place a session by its cwd; a record without one
			// would be nowhere (and every project's at once).
			return update{Dropped: "no cwd in the event, no CLAUDE_PROJECT_DIR, no working directory"}
		}
		observed(after, obs)
		t.Put(after)
		u.After = after
	}

	if ev.HookEventName == EventSessionStart && (ev.Source == sourceClear || ev.Source == sourceResume) && obs.Process.PID != 0 {
		// One Claude process runs one session at a time: after /clear or
		// /resume, a record of the same process under another id is the
		// session just ended, whatever order the async SessionEnd and
		// SessionStart arrive in. (Only then: a process found wrongly,
		// shared by all hooks, must not cost other sessions their records.)
		for _, other := range t.IDs() {
			if other == id {
				continue
			}
			if pid, started := t.Process(other); obs.Process.Same(pid, started) {
				t.Remove(other)
				t.Ended[other] = at
				u.Replaced = append(u.Replaced, other)
			}
		}
	}

	t.DropStale(now)
	return u
}

// observed records in r what the hook saw around the event: the project,
// the config directory, and the Claude process with its terminal. The pid follows the newest
// live process: `claude --continue` starts a new process under the old
// id, but an event from an older process whose successor still lives
// (two processes on one session) does not take the record back.
func observed(r *store.Record, obs observation) {
	if obs.ProjectDir != "" {
		r.ProjectDir = obs.ProjectDir
	}
	r.ConfigDir = obs.ConfigDir
	p := obs.Process
	if p.PID == 0 {
		return
	}
	same := p.Same(r.PID, r.ProcStarted)
	if !same && r.PID != 0 && p.Started < r.ProcStarted && obs.Alive != nil && obs.Alive(r.PID, r.ProcStarted) {
		return
	}
	r.PID, r.ProcStarted = p.PID, p.Started
	r.Terminal = obs.Terminal
}
