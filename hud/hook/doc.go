// Package hook is what runs inside bin/hud-hook, once per hook event of a
// coding agent: it decodes the event, applies the state machine to the
// session's record in the store (internal/store's Update), and runs the
// follow-ups (the lock holder, break and work-session bookkeeping,
// activity tracking).
//
// The rules that never bend: nothing on stdout (Claude would add it to the
// person's context), exit status 0 whatever happens, and never hang.
//
// Where things are: run.go is the pipeline and the list of follow-ups,
// modes.go the hidden helper modes of the binary; event.go decodes and
// checks stdin; agent.go is the coding agent a run serves (Claude Code's
// own payloads, or another agent's through the Source its package under
// hud/agent declares, which Env.Sources lists); state.go is the state
// machine (a pure function of record, event and time), with subagents.go
// (subagents, turns Claude injects itself, notification types) and
// dialogs.go (what a waiting session waits for, in the person's words);
// the events it knows are listed once, in hud/hookevents; sessions.go
// applies an event to the whole store (ended ids, /clear); debuglog.go
// writes ~/.claude/hud-hook-debug.log.
package hook
