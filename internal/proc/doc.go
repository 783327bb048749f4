// Package proc is process identity: a process named by its pid and its
// start time, so that a pid the kernel reused is never taken for the
// process it once named; finding the coding agent's process above a hook
// (past the /bin/sh that runs it and any wrapper, confirmed to be Claude
// Code by its executable or by Claude's own session file; claude.go); and
// starting a helper fully detached from both (StartDetached). The
// OS-specific parts live in one file per OS.
package proc
