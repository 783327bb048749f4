package proc

import (
	"os"
	"syscall"
)

// StartDetached starts exe with args, fully detached from the hook and from
// Claude, and does not wait for it: a session of its own (no terminal
// hangup reaches it), /dev/null for stdin, stdout and stderr, the working
// directory /, env as its whole environment, and no file descriptor but
// extra (numbered from 3). Claude Code waits until every copy of the hook's
// stdout and stderr pipes is closed, so a helper that kept one would stall
// Claude for as long as it runs. No handle is kept, only the pid is
// returned; init reaps the helper once the hook has exited.
func StartDetached(exe string, args, env []string, extra ...*os.File) (pid int, err error) {
	devNull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer devNull.Close()
	// Descriptors the hook inherited without close-on-exec (Go sets it on
	// its own) would otherwise pass on to the helper.
	closeInheritedOnExec()
	if env == nil {
		env = []string{}
	}
	files := append([]*os.File{devNull, devNull, devNull}, extra...)
	p, err := os.StartProcess(exe, append([]string{exe}, args...), &os.ProcAttr{
		Dir:   "/",
		Env:   env,
		Files: files,
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return 0, err
	}
	pid = p.Pid
	// The hook never waits for its helper: the handle goes at once.
	p.Release()
	return pid, nil
}
