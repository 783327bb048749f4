package proc

// fdDir lists the process's open file descriptors.
const fdDir = "/dev/fd"

// closeInheritedOnExec sets close-on-exec on every descriptor from 3 up.
func closeInheritedOnExec() { closeOnExecListed() }
