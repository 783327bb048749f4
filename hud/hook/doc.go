// Package hook is what runs inside bin/hud-hook, once per Claude Code hook
// event: it decodes the event, applies the state machine to the session's
// record, writes the store under its lock, and runs the follow-ups (the lock
// holder, break and work-session bookkeeping, activity tracking).
//
// The rules that never bend: nothing on stdout (Claude would add it to the
// person's context), exit status 0 whatever happens, and never hang.
package hook
