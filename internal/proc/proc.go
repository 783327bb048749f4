package proc

import (
	"errors"
	"path/filepath"
	"strings"
)

// Process is what the HUD needs to know about one process.
type Process struct {
	PID  int
	PPID int
	// Comm is the executable's short name, as the kernel reports it
	// (truncated to 15 characters on Linux).
	Comm string
	// Started is the start time in Unix seconds: with PID, the process's
	// identity, stable across calls and across processes.
	Started int64
	// StartTicks is the start time in clock ticks since boot where the OS
	// reports one (Linux /proc/<pid>/stat field 22); Claude Code's own
	// session files carry this as procStart. Zero elsewhere.
	StartTicks uint64
}

// ErrNoProcess is returned for a pid that does not exist (any more).
var ErrNoProcess = errors.New("no such process")

// startedSlack absorbs the one-second jitter in Linux's boot time
// (/proc/stat btime is recomputed from the wall clock and can move by a
// second), which shifts every start time we derive from it. A pid reused
// within the same second is not a case worth a false "dead".
const startedSlack = 1

// Same reports whether pid and started (Unix seconds, as recorded earlier)
// name p, allowing for the jitter of derived start times (startedSlack).
func (p Process) Same(pid int, started int64) bool {
	return p.PID == pid && SameStart(p.Started, started)
}

// Alive reports whether the process pid is running and, when started is
// non-zero, is the same process that started then (not a reused pid).
func Alive(pid int, started int64) bool {
	if pid <= 0 {
		return false
	}
	p, err := Inspect(pid)
	if err != nil {
		// EPERM and the like: the process exists but we may not look at
		// it. Without its start time we cannot tell reuse; trust kill(0).
		return !errors.Is(err, ErrNoProcess) && signalZero(pid)
	}
	return started == 0 || SameStart(p.Started, started)
}

// StartTicks is resolver.ProcessStart over the real processes: the start
// time of pid in clock ticks since boot, and whether it runs. A process we
// may not inspect counts as running, with no start time to compare.
func StartTicks(pid int) (ticks uint64, running bool) {
	p, err := Inspect(pid)
	if err != nil {
		return 0, !errors.Is(err, ErrNoProcess)
	}
	return p.StartTicks, true
}

// IsShell reports whether comm names a shell or a thin exec wrapper.
// These are the programs Claude Code (or a user's wrapper) may put between
// itself and the hook.
func IsShell(comm string) bool {
	switch strings.TrimPrefix(filepath.Base(comm), "-") {
	case "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "ash", "busybox", "env",
		"timeout", "nice", "nohup":
		return true
	}
	return false
}

// SameStart compares two start times in Unix seconds with the slack Alive
// allows.
func SameStart(a, b int64) bool {
	d := a - b
	return d >= -startedSlack && d <= startedSlack
}
