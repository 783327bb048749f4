package lockholder

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// darwinWatch waits in one kevent(2) call for the process's exit
// (EVFILT_PROC NOTE_EXIT) and for the lock directory to be deleted or moved
// (EVFILT_VNODE on the descriptor the holder keeps for its flock). Nothing
// wakes the holder in between.
type darwinWatch struct {
	kq int
}

func openLockWatch(pid int, dir string, dirFD int) (lockWatch, error) {
	kq, err := unix.Kqueue()
	if err != nil {
		return nil, fmt.Errorf("kqueue: %w: %w", err, errNoNotification)
	}
	unix.CloseOnExec(kq)
	w := &darwinWatch{kq: kq}
	var proc, vnode unix.Kevent_t
	unix.SetKevent(&proc, pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	proc.Fflags = unix.NOTE_EXIT
	unix.SetKevent(&vnode, dirFD, unix.EVFILT_VNODE, unix.EV_ADD|unix.EV_CLEAR)
	vnode.Fflags = unix.NOTE_DELETE | unix.NOTE_RENAME | unix.NOTE_REVOKE
	if _, err := unix.Kevent(kq, []unix.Kevent_t{proc}, nil, nil); err != nil {
		w.close()
		if errors.Is(err, unix.ESRCH) {
			return nil, fmt.Errorf("watching pid %d: %w", pid, ErrNoProcess)
		}
		return nil, fmt.Errorf("watching pid %d: %w: %w", pid, err, errNoNotification)
	}
	if _, err := unix.Kevent(kq, []unix.Kevent_t{vnode}, nil, nil); err != nil {
		w.close()
		return nil, fmt.Errorf("watching %s: %w", dir, err)
	}
	// The directory may have been replaced between opening and watching.
	if !sameFile(dir, dirFD) {
		w.close()
		return nil, errLockGone
	}
	return w, nil
}

func (w *darwinWatch) wait() (lockEvent, error) {
	events := make([]unix.Kevent_t, 2)
	for {
		n, err := unix.Kevent(w.kq, nil, events, nil)
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
			}
		}
		if gone {
			return lockGone, nil
		}
	}
}

func (w *darwinWatch) close() { unix.Close(w.kq) }
