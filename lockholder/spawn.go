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

// spawnHolder starts holderExe in hold mode for dir, fully detached from
// the hook and from Claude: a session of its own (no terminal hangup
// reaches it), /dev/null for stdin, stdout and stderr, the working
// directory /, an empty environment, and no file descriptor but the locked
// lockFile. Claude Code waits until every copy of the hook's stdout and
// stderr pipes is closed, so a holder that kept one would stall Claude for
// the whole session. The holder is not waited for: Release drops our
// handle, and init reaps it once the hook has exited.
func spawnHolder(holderExe, dir string, lockFile *os.File, claude Process) error {
	devNull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("starting lock holder: %w", err)
	}
	defer devNull.Close()
	// Descriptors the hook inherited without close-on-exec (Go sets it on
	// its own) would otherwise pass on to the holder.
	closeInheritedOnExec()
	argv := []string{
		holderExe, HoldMode, dir,
		strconv.Itoa(claude.PID), strconv.FormatInt(claude.Started, 10),
	}
	p, err := os.StartProcess(holderExe, argv, &os.ProcAttr{
		Dir:   "/",
		Env:   []string{},
		Files: []*os.File{devNull, devNull, devNull, lockFile},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return fmt.Errorf("starting lock holder: %w", err)
	}
	return p.Release()
}
