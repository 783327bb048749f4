// Package lockholder keeps a lock directory in ~/.claude/sessions/ for as
// long as a Claude Code process lives, so the HUD can tell a live session
// from a record left behind by a closed terminal or a kill -9.
//
// It also owns process identity: finding the Claude process above a hook
// (past the /bin/sh that runs it), telling a live process from a dead one or
// a reused pid, and waiting for a process to exit without polling where the
// OS allows. The OS-specific parts live in one file per OS.
package lockholder
