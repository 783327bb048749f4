package lockholder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/proc"
)

// handedLockFD is where Ensure puts the lock's pid file, flock held, for
// the holder (the first descriptor after stdin, stdout and stderr).
const handedLockFD = 3

// lockEvent is what ends a holder's wait.
type lockEvent int

const (
	claudeExited lockEvent = iota + 1 // remove the lock, then exit
	lockGone                          // someone removed the lock: just exit
)

// A lockWatch waits, without a timer where the OS allows, for the Claude
// process to exit or the lock directory to be removed. There is one per OS
// (wait_linux.go, wait_darwin.go) and a polling fallback (wait_poll.go).
type lockWatch interface {
	wait() (lockEvent, error)
	close()
}

// errNoNotification says the OS cannot notify the holder of an exit here
// (Linux before 5.3, a seccomp filter): the holder falls back to polling.
var errNoNotification = errors.New("exit notification unavailable")

// HoldMain runs the lock holder (hud-hook hold-lock <lock dir> <pid>
// <started>) and returns its exit status. It keeps the lock directory until
// the Claude process pid, started at started (Unix seconds), exits, then
// removes it; it exits early, leaving everything as it is, when the lock
// directory is removed or another holder holds it. Meanwhile it hands each
// job a hook sends it (SendJob) to jobs, which may start processes; jobs
// nil takes none. beside, when set, runs while the holder holds (the
// ledger's recorder); its context ends once the lock is gone, and the
// holder waits for it to return.
func HoldMain(args []string, jobs func(job []byte), beside func(ctx context.Context)) int {
	return holdMain(args, jobs, beside, os.Stderr)
}

func holdMain(args []string, jobs func(job []byte), beside func(ctx context.Context), stderr io.Writer) int {
	if len(args) != 3 {
		fmt.Fprintf(stderr, "usage: hud-hook %s <lock dir> <pid> <started>\n", HoldMode)
		return 2
	}
	pid, err1 := strconv.Atoi(args[1])
	started, err2 := strconv.ParseInt(args[2], 10, 64)
	if err := errors.Join(err1, err2); err != nil || pid <= 0 {
		fmt.Fprintf(stderr, "hud-hook %s: bad pid or start time: %q %q\n", HoldMode, args[1], args[2])
		return 2
	}
	if jobs != nil {
		// The processes a job starts are the holder's children, and it
		// never waits for them: with SIGCHLD ignored the kernel reaps
		// them, and none lingers as a zombie for the session's life. A Go
		// program started from here installs its own SIGCHLD handler at
		// start, so the ignored signal goes no further than its exec.
		signal.Ignore(syscall.SIGCHLD)
	}
	if err := hold(args[0], pid, started, jobs, beside); err != nil {
		// Stderr is /dev/null when Ensure started us; this is for a person
		// running the mode by hand.
		fmt.Fprintf(stderr, "hud-hook %s: %v\n", HoldMode, err)
		return 1
	}
	return 0
}

// hold is the holder's life.
func hold(dir string, pid int, started int64, jobs func(job []byte), beside func(ctx context.Context)) error {
	lockFD, held, err := lockForHolding(dir)
	if err != nil || !held {
		return err
	}
	defer unix.Close(lockFD)
	dirFD, err := openNoFollow(dir)
	if err != nil {
		return fmt.Errorf("holding lock: %w", err)
	}
	defer unix.Close(dirFD)
	if !sameFile(filepath.Join(dir, pidFile), lockFD) {
		return nil // the directory was replaced under us: not ours any more
	}

	// The job socket is bound before the wait, so a hook that finds it
	// finds a holder that reads it.
	// Once bound, whatever ends the holder, the jobs already sent run
	// (drain) before the lock goes: SendJob told their hooks they were
	// taken, so no hook starts them itself.
	in := openInbox(dir, dirFD, jobs)
	defer in.drain()

	// Arm the watch first, then check the pid's identity: a process that
	// exits after the check is then still seen exiting.
	w, err := openLockWatch(pid, dir, dirFD, in)
	switch {
	case errors.Is(err, proc.ErrNoProcess):
		in.drain()
		return removeIfOurs(dir, dirFD)
	case errors.Is(err, errLockGone):
		return nil
	case errors.Is(err, errNoNotification):
		// The polling fallback sleeps between looks and takes no jobs.
		in.drain()
		w = newPollWatch(pid, started, dir, dirFD)
	case err != nil:
		return err
	}
	defer w.close()
	if !proc.Alive(pid, started) {
		// Gone already, or the pid now belongs to another process.
		in.drain()
		return removeIfOurs(dir, dirFD)
	}
	// Deferred, so it stops after the lock is removed below: beside sees
	// the session end.
	defer start(beside)()
	ev, err := w.wait()
	// Jobs sent before the end still run, whatever ended the wait.
	in.drain()
	if err != nil {
		return err
	}
	if ev == claudeExited {
		return removeIfOurs(dir, dirFD)
	}
	return nil
}

// start runs beside, if set, until the returned stop is called; stop
// waits for it to return.
func start(beside func(ctx context.Context)) (stop func()) {
	if beside == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		beside(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// errLockGone says the lock directory went away before the holder watched
// it.
var errLockGone = errors.New("lock directory removed")

// lockForHolding returns a descriptor of dir's pid file that holds the
// holder's exclusive flock. Ensure hands one over as descriptor 3; a
// holder started any other way takes the flock itself. held is false when
// another holder has it.
func lockForHolding(dir string) (fd int, held bool, err error) {
	pidPath := filepath.Join(dir, pidFile)
	if sameFile(pidPath, handedLockFD) {
		// Our copy of the lock Ensure took; re-taking it is a no-op that
		// confirms it.
		if got, err := flockNB(handedLockFD, unix.LOCK_EX); err == nil && got {
			unix.CloseOnExec(handedLockFD)
			return handedLockFD, true, nil
		}
	}
	fd, err = openNoFollow(pidPath)
	if err != nil {
		return -1, false, fmt.Errorf("holding lock: %w", err)
	}
	got, err := flockNB(fd, unix.LOCK_EX)
	if err != nil || !got {
		unix.Close(fd)
		return -1, false, err
	}
	return fd, true, nil
}

// removeIfOurs removes the lock directory if dir still names the one the
// holder holds open, never one made in its place since.
func removeIfOurs(dir string, fd int) error {
	if !sameFile(dir, fd) {
		return nil
	}
	return removeLock(dir)
}
