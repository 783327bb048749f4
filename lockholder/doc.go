// Package lockholder keeps a lock directory in ~/.claude/sessions/ for as
// long as a Claude Code process lives, so the HUD can tell a live session
// from a record left behind by a closed terminal or a kill -9.
//
// A lock is ~/.claude/sessions/<12 hex of SHA-256 of the path>-<pid>.lock/
// (paths.LockName) holding pid and meta.json (resolver.LockMeta). One
// Claude process has one lock, named for the cwd its session had when the
// lock was taken. The hook calls Ensure, which makes the lock and starts a
// holder: the hook binary itself in the hidden mode HoldMode (HoldMain),
// fully detached. The holder keeps an exclusive flock on the pid file for
// its whole life (that is how Ensure and HasLiveLock know it lives), waits
// for the Claude process to exit without polling (a pidfd on Linux, kqueue
// on macOS, a 1 s poll only where neither works), removes the lock at once
// and exits; it also exits when someone else removes the lock. Sweep
// removes locks whose process is gone or whose pid was reused. While it
// waits, the holder takes jobs on a datagram socket in its lock directory
// (SendJob; jobs.go): a hook hands it a process to start and exits
// without waiting for the fork; what a job says is its handler's business.
//
// Which process is Claude, and whether it still lives, is internal/proc's;
// the OS-specific parts here live in one file per OS.
package lockholder
