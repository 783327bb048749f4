package proc

import (
	"os"
	"runtime"
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
	fds := []uintptr{devNull.Fd(), devNull.Fd(), devNull.Fd()}
	for _, f := range extra {
		fds = append(fds, f.Fd())
	}
	// syscall.ForkExec, not os.StartProcess: the hook never waits for its
	// helper, so it needs no process handle, and os.StartProcess first
	// probes pidfd support with a throw-away clone of the whole process
	// (CLONE_VFORK, waited for) before the real one. ForkExec still waits
	// for the child's exec, so a missing or unrunnable binary is an error
	// here.
	pid, err = syscall.ForkExec(exe, append([]string{exe}, args...), &syscall.ProcAttr{
		Dir:   "/",
		Env:   env,
		Files: fds,
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	runtime.KeepAlive(devNull)
	runtime.KeepAlive(extra)
	if err != nil {
		return 0, &os.PathError{Op: "fork/exec", Path: exe, Err: err}
	}
	return pid, nil
}
