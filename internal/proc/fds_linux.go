package proc

import "golang.org/x/sys/unix"

// fdDir lists the process's open file descriptors.
const fdDir = "/proc/self/fd"

// closeInheritedOnExec sets close-on-exec on every descriptor from 3 up,
// in one close_range call where the kernel has it (Linux 5.11+).
func closeInheritedOnExec() {
	if unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	closeOnExecListed()
}
