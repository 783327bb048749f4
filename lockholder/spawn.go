package lockholder

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// HoldMode is the hidden hud-hook mode that runs a lock holder:
//
//	hud-hook hold-lock <lock dir> <claude pid> <claude start, Unix seconds>
//
// with the lock's pid file, its flock held, open as file descriptor 3.
const HoldMode = "hold-lock"

// spawnHolder starts holderExe in hold mode for dir, with the lock's pid
// file (its flock held) as descriptor 3. See StartDetached.
func spawnHolder(holderExe, dir string, lockFile *os.File, claude Process) error {
	err := StartDetached(holderExe, []string{HoldMode, dir, strconv.Itoa(claude.PID), strconv.FormatInt(claude.Started, 10)}, nil, lockFile)
	if err != nil {
		return fmt.Errorf("starting lock holder: %w", err)
	}
	return nil
}

// StartDetached starts exe with args, fully detached from the hook and from
// Claude, and does not wait for it: a session of its own (no terminal
// hangup reaches it), /dev/null for stdin, stdout and stderr, the working
// directory /, env as its whole environment, and no file descriptor but
// extra (numbered from 3). Claude Code waits until every copy of the hook's
// stdout and stderr pipes is closed, so a helper that kept one would stall
// Claude for as long as it runs. Release drops our handle; init reaps the
// helper once the hook has exited.
func StartDetached(exe string, args, env []string, extra ...*os.File) error {
	devNull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer devNull.Close()
	// Descriptors the hook inherited without close-on-exec (Go sets it on
	// its own) would otherwise pass on to the helper.
	closeInheritedOnExec()
	if env == nil {
		env = []string{}
	}
	p, err := os.StartProcess(exe, append([]string{exe}, args...), &os.ProcAttr{
		Dir:   "/",
		Env:   env,
		Files: append([]*os.File{devNull, devNull, devNull}, extra...),
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return err
	}
	return p.Release()
}
