package resolver

import (
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

// Claude Code's own statuses in ~/.claude/sessions/<pid>.json.
const (
	ClaudeStatusIdle    = "idle"
	ClaudeStatusBusy    = "busy"
	ClaudeStatusWaiting = "waiting"
)

// ClaudeIdleAfter is how long Claude Code must have said "idle" before the
// HUD believes it over a record that says working, waiting or compacting.
// Claude rewrites its file as its screen changes: busy as a prompt is
// sent, idle as an Esc, a denied or dismissed dialog or the turn's end
// puts the prompt back, and it says busy throughout a turn (between its
// tool calls, while a hook runs, while a background agent works) and a
// compaction, save the blink ClaudeAgentIdleAfter covers. The file is written asynchronously, though, so a hook of the
// same moment may land just after it: the confirmation keeps such a race
// from showing ready for an instant, and is short enough that an Esc,
// which fires no hook, shows within a second.
const ClaudeIdleAfter = 250 * time.Millisecond

// ClaudeAgentIdleAfter is the confirmation instead while subagents run or
// one has just ended (the record's last event a SubagentStop): Claude goes
// on by itself with a background agent's result, and between the agent's
// end and that turn it says idle for a moment, for half a second and more
// on a loaded machine, its spinner already running.
const ClaudeAgentIdleAfter = 5 * time.Second

// SecondOpinion decides whether Claude Code's own session file c should
// override the state of rec, and returns the state to show and since when.
//
// Claude writes the file asynchronously, so at any moment it may lag a hook
// (fixture 06: the prompt was submitted, the file still says idle). Its
// status therefore wins only when it changed after our record learned
// otherwise; a hook that fired after the status changed is the newer news
// and keeps the record in charge:
//   - "idle" that has lasted its confirmation (idleBelievedAt; none for a
//     waiting record, whose dialog Claude's "waiting" covered) turns
//     working, waiting or compacting into ready: the interrupted turn
//     whose Stop never fired, the dialog denied or dismissed (no hook
//     fires), the /compact Claude refused, and the background agent's
//     result that never came back as a turn.
//   - "busy" that began after the record started waiting turns waiting into
//     working: the person approved the dialog and the tool runs, but no hook
//     fires until it ends (PostToolUse), minutes later for `npm test`.
//   - "busy" that began after the record last heard of the session turns
//     ready into working: the prompt was sent and the spinner runs while
//     the UserPromptSubmit hook has not landed, or Claude went on by itself
//     (a background agent's result) before its hooks fired. A busy from
//     before the record's Stop is the turn that ended.
//   - "waiting" that began no earlier than the record's current state shows
//     waiting: a dialog whose hook did not fire or was overtaken. A hook that
//     moved the record on after the dialog (PostToolUse once approved) makes
//     the status stale until Claude rewrites it. A record whose only news
//     is the session's start is no such hook: a startup question (2.1.330's
//     "Make auto mode your default permission mode?") opens about 200 ms
//     after SessionStart fires and fires no hook, so a SessionStart hook
//     slow enough to write after it must not hide it.
//
// Anything else (an empty status in print mode or from a release that
// writes none, no status time) leaves the hooks in charge.
func SecondOpinion(rec *store.Record, c *ClaudeSession, now time.Time) (store.State, time.Time, bool) {
	if rec == nil || c == nil {
		return "", time.Time{}, false
	}
	since := c.StatusSince()
	if since.IsZero() {
		return "", time.Time{}, false
	}
	switch c.Status {
	case ClaudeStatusIdle:
		if at, ok := idleBelievedAt(rec, c); ok && !now.Before(at) {
			return store.StateReady, since.UTC(), true
		}
	case ClaudeStatusBusy:
		switch {
		case rec.State == store.StateWaiting && since.After(rec.StateChangedAt.Time),
			rec.State == store.StateReady && since.After(lastNews(rec)):
			return store.StateWorking, since.UTC(), true
		}
	case ClaudeStatusWaiting:
		if rec.State == store.StateWaiting {
			break
		}
		changed := rec.StateChangedAt.Time
		if changed.IsZero() {
			changed = rec.UpdatedAt.Time
		}
		if changed.After(since) && !onlyStarted(rec) {
			break
		}
		return store.StateWaiting, since.UTC(), true
	}
	return "", time.Time{}, false
}

// idleBelievedAt is the moment Claude's "idle" in c overrules rec: when it
// has lasted ClaudeIdleAfter, or ClaudeAgentIdleAfter around subagents. It
// reports false when it never will: the record is ready already, the file
// says something else, or an event came after the idle began (the file
// lags the hook that started new work, as at a PreCompact: Claude still
// says the idle of the turn before).
func idleBelievedAt(rec *store.Record, c *ClaudeSession) (time.Time, bool) {
	since := c.StatusSince()
	if c.Status != ClaudeStatusIdle || since.IsZero() || lastNews(rec).After(since) {
		return time.Time{}, false
	}
	switch rec.State {
	case store.StateWorking, store.StateWaiting, store.StateCompacting:
		if len(rec.Subagents) > 0 || (rec.LastEvent != nil && rec.LastEvent.Event == "SubagentStop") {
			return since.Add(ClaudeAgentIdleAfter), true
		}
		if rec.State == store.StateWaiting && since.After(rec.StateChangedAt.Time) {
			// Claude says waiting while its dialog is up: idle since then
			// means the dialog is gone (denied, or approved and the tool
			// interrupted, which fires no hook). Waiting until the idle is
			// confirmed would show the closed dialog again.
			return since, true
		}
		return since.Add(ClaudeIdleAfter), true
	}
	return time.Time{}, false
}

// onlyStarted reports whether the session's start is the last the record
// heard of it.
func onlyStarted(rec *store.Record) bool {
	return rec.LastEvent != nil && rec.LastEvent.Event == "SessionStart"
}

// lastNews is when the record last learned what the session does: its last
// event, unless that was a Notification, which only says Claude waits
// (idle_prompt fires a minute after an Esc-interrupted turn, whose stale
// tool count kept the record working): then when its state last changed.
// Without this, the idle_prompt would cancel the very correction it
// confirms, and the session would show working for good. A status of
// Claude's that changed after it is newer news than the record's.
func lastNews(rec *store.Record) time.Time {
	if rec.LastEvent != nil && rec.LastEvent.Event == "Notification" && !rec.StateChangedAt.IsZero() {
		return rec.StateChangedAt.Time
	}
	return rec.UpdatedAt.Time
}

// claudeSessionFor finds Claude Code's file for the session running in
// process pid. The file names the session the process runs now, which after
// /clear or --resume is briefly the previous one (fixtures 23, 28): a file
// naming another session says nothing about this one. With pid unknown (a
// record from an older hook, no lock) the newest file naming the session is
// taken.
func (r *run) claudeSessionFor(sessionID string, pid int) *ClaudeSession {
	if sessionID == "" {
		return nil
	}
	return newestClaudeFile(r.snap.Claude, sessionID, pid)
}
