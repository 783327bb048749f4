package lockholder

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/proc"
)

// darwinWatch waits in one kevent(2) call for the process's exit
// (EVFILT_PROC NOTE_EXIT), for the lock directory to be deleted or moved
// (EVFILT_VNODE on the descriptor the holder keeps for its flock) and for
// jobs (EVFILT_READ on the job socket). Nothing but a job wakes the holder
// in between.
type darwinWatch struct {
	kq   int
	jobs *inbox
}

func openLockWatch(pid int, dir string, dirFD int, jobs *inbox) (lockWatch, error) {
	kq, err := unix.Kqueue()
	if err != nil {
		return nil, fmt.Errorf("kqueue: %w: %w", err, errNoNotification)
	}
	unix.CloseOnExec(kq)
	w := &darwinWatch{kq: kq, jobs: jobs}
	var exit, vnode unix.Kevent_t
	unix.SetKevent(&exit, pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	exit.Fflags = unix.NOTE_EXIT
	unix.SetKevent(&vnode, dirFD, unix.EVFILT_VNODE, unix.EV_ADD|unix.EV_CLEAR)
	vnode.Fflags = unix.NOTE_DELETE | unix.NOTE_RENAME | unix.NOTE_REVOKE
	if _, err := unix.Kevent(kq, []unix.Kevent_t{exit}, nil, nil); err != nil {
		w.close()
		if errors.Is(err, unix.ESRCH) {
			return nil, fmt.Errorf("watching pid %d: %w", pid, proc.ErrNoProcess)
		}
		return nil, fmt.Errorf("watching pid %d: %w: %w", pid, err, errNoNotification)
	}
	if _, err := unix.Kevent(kq, []unix.Kevent_t{vnode}, nil, nil); err != nil {
		w.close()
		return nil, fmt.Errorf("watching %s: %w", dir, err)
	}
	if fd := jobs.pollFD(); fd >= 0 {
		var read unix.Kevent_t
		unix.SetKevent(&read, fd, unix.EVFILT_READ, unix.EV_ADD)
		if _, err := unix.Kevent(kq, []unix.Kevent_t{read}, nil, nil); err != nil {
			jobs.close() // the lock is held all the same; hooks start their jobs
		}
	}
	// The directory may have been replaced between opening and watching.
	if !sameFile(dir, dirFD) {
		w.close()
		return nil, errLockGone
	}
	return w, nil
}

func (w *darwinWatch) wait() (lockEvent, error) {
	events := make([]unix.Kevent_t, 3)
	for {
		// Woken by an event, or by the time a job waiting for its delay
		// is due.
		var timeout *unix.Timespec
		if ms := w.jobs.timeout(time.Now()); ms >= 0 {
			ts := unix.NsecToTimespec(int64(ms) * int64(time.Millisecond))
			timeout = &ts
		}
		n, err := unix.Kevent(w.kq, nil, events, timeout)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("waiting for exit: %w", err)
		}
		gone := false
		for _, ev := range events[:n] {
			switch {
			case ev.Flags&unix.EV_ERROR != 0:
				return 0, fmt.Errorf("waiting for exit: %w", unix.Errno(ev.Data))
			case ev.Filter == unix.EVFILT_PROC:
				return claudeExited, nil
			case ev.Filter == unix.EVFILT_VNODE:
				gone = true
			case ev.Filter == unix.EVFILT_READ:
				if ev.Flags&unix.EV_EOF != 0 || !w.jobs.serve() {
					// Closing the socket also removes its event: give up
					// taking jobs, never the lock.
					w.jobs.close()
				}
			}
		}
		if gone {
			return lockGone, nil
		}
		w.jobs.runDue(time.Now())
	}
}

func (w *darwinWatch) close() { unix.Close(w.kq) }
