package resolver

import "time"

// Claude Code's own statuses in ~/.claude/sessions/<pid>.json.
const (
	ClaudeStatusIdle    = "idle"
	ClaudeStatusBusy    = "busy"
	ClaudeStatusWaiting = "waiting"
)

// ClaudeIdleAfter is how long Claude Code must have said "idle" before the
// HUD believes it over a record that says working or waiting. Claude writes
// its file asynchronously and goes idle for a moment around compaction
// (fixture 17), so a short idle proves nothing; an Esc interrupt (fixtures
// 21→22), which fires no hook at all, stays idle.
const ClaudeIdleAfter = 5 * time.Second

// SecondOpinion decides whether Claude Code's own session file c should
// override the state of rec, and returns the state to show and since when.
//
// Claude writes the file asynchronously, so at any moment it may lag a hook
// (fixture 06: the prompt was submitted, the file still says idle). Its
// status therefore wins only when it changed after our record learned
// otherwise:
//   - "idle" for ClaudeIdleAfter or more, with no event since it went idle
//     (record updated_at not after the status change), turns working,
//     waiting or compacting into ready: the interrupted turn whose Stop
//     never fired, and the /compact Claude refused ("Not enough messages to
//     compact"), which fires PreCompact and nothing after it. A real
//     compaction keeps the file busy throughout (fixtures 18–20).
//   - "busy" that began after the record started waiting turns waiting into
//     working: the person approved the dialog and the tool runs, but no hook
//     fires until it ends (PostToolUse), minutes later for `npm test`.
//   - "waiting" that began no earlier than the record's current state shows
//     waiting: a dialog whose hook did not fire or was overtaken. A hook that
//     moved the record on after the dialog (PostToolUse once approved) makes
//     the status stale until Claude rewrites it. A record whose only news
//     is the session's start is no such hook: a startup question (2.1.330's
//     "Make auto mode your default permission mode?") opens about 200 ms
//     after SessionStart fires and fires no hook, so a SessionStart hook
//     slow enough to write after it must not hide it.
//
// Anything else ("busy", an empty status in print mode, no status time)
// leaves the hooks in charge.
func SecondOpinion(rec *Record, c *ClaudeSession, now time.Time) (State, time.Time, bool) {
	if rec == nil || c == nil {
		return "", time.Time{}, false
	}
	since := c.StatusSince()
	if since.IsZero() {
		return "", time.Time{}, false
	}
	switch c.Status {
	case ClaudeStatusIdle:
		if rec.State != StateWorking && rec.State != StateWaiting && rec.State != StateCompacting {
			break
		}
		if lastSignOfWork(rec).After(since) || now.Sub(since) < ClaudeIdleAfter {
			break
		}
		return StateReady, since.UTC(), true
	case ClaudeStatusBusy:
		if rec.State != StateWaiting || !since.After(rec.StateChangedAt.Time) {
			break
		}
		return StateWorking, since.UTC(), true
	case ClaudeStatusWaiting:
		if rec.State == StateWaiting {
			break
		}
		changed := rec.StateChangedAt.Time
		if changed.IsZero() {
			changed = rec.UpdatedAt.Time
		}
		if changed.After(since) && !onlyStarted(rec) {
			break
		}
		return StateWaiting, since.UTC(), true
	}
	return "", time.Time{}, false
}

// onlyStarted reports whether the session's start is the last the record
// heard of it.
func onlyStarted(rec *Record) bool {
	return rec.LastEvent != nil && rec.LastEvent.Event == "SessionStart"
}

// lastSignOfWork is when the record last showed the session working: its
// last event, unless that was a Notification, which only says Claude waits
// (idle_prompt fires a minute after an Esc-interrupted turn, whose stale
// tool count kept the record working): then when its state last changed.
// Without this, the idle_prompt would cancel the very correction it
// confirms, and the session would show working for good.
func lastSignOfWork(rec *Record) time.Time {
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
