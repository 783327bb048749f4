// Package worksession is the timed work session: a task the
// person starts with `hud session start "<task>"`, whose working time is
// counted without the pauses, with a gentle reminder at 40 minutes, a
// warning at 60 and a timeout at 90 that pauses the session.
//
// The state lives in <project>/.claude/session-state.json, in a fixed
// schema (see [State]); `hud session stop` deletes it. The hook keeps it
// current on every event of the project ([Observe]): gaps between events
// shorter than the idle gap count as work, longer ones become an AUTO_IDLE
// pause, and a Task (subagent) run longer than ten minutes becomes an
// AUTO_TASK pause. The rules are pure functions of a State, a time and the
// [Settings]; [Files] adds the lock and the atomic write.
//
// The hook only sets the reminder flags; the tray notices which ones
// turned on ([NewlyFired]) and tells the person, and shows the running
// session ([Summary.Line]: "api · 42m of work"). [Section] does both for
// the tray app.
package worksession
