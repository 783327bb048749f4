package lockholder

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/proc"
)

// linuxWatch waits in one poll(2) on a pidfd, readable once the process
// exits (Linux 5.3+), an inotify descriptor watching the lock directory,
// and the job socket. Nothing but a job wakes the holder in between.
type linuxWatch struct {
	pidfd, inotify int
	jobs           *inbox
}

// lockDirGoneMask is what inotify reports on the lock directory when it is
// being removed. IN_DELETE_SELF alone is not enough: the kernel delays it
// until the last open descriptor of the directory is closed, and the holder
// keeps one open for its flock. So a removal is seen by the deletion of the
// files every lock has (rm -r empties a directory before removing it), or
// by the directory being moved away. A rename of meta.json over the old one
// is a move, not a deletion, and wakes nobody.
const lockDirGoneMask = unix.IN_DELETE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF

func openLockWatch(pid int, dir string, dirFD int, jobs *inbox) (lockWatch, error) {
	pidfd, err := unix.PidfdOpen(pid, 0)
	switch {
	case errors.Is(err, unix.ESRCH):
		return nil, fmt.Errorf("watching pid %d: %w", pid, proc.ErrNoProcess)
	case err != nil:
		// ENOSYS before Linux 5.3, EPERM under some seccomp filters.
		return nil, fmt.Errorf("pidfd_open: %w: %w", err, errNoNotification)
	}
	in, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		unix.Close(pidfd)
		return nil, fmt.Errorf("inotify_init1: %w: %w", err, errNoNotification)
	}
	w := &linuxWatch{pidfd: pidfd, inotify: in, jobs: jobs}
	_, err = unix.InotifyAddWatch(in, dir, lockDirGoneMask|unix.IN_ONLYDIR|unix.IN_DONT_FOLLOW)
	if err != nil {
		w.close()
		if errors.Is(err, unix.ENOENT) {
			return nil, errLockGone
		}
		return nil, fmt.Errorf("watching %s: %w", dir, err)
	}
	// The directory may have been replaced between opening and watching.
	if !sameFile(dir, dirFD) {
		w.close()
		return nil, errLockGone
	}
	return w, nil
}

func (w *linuxWatch) wait() (lockEvent, error) {
	fds := []unix.PollFd{
		{Fd: int32(w.pidfd), Events: unix.POLLIN},
		{Fd: int32(w.inotify), Events: unix.POLLIN},
		{Fd: int32(w.jobs.pollFD()), Events: unix.POLLIN},
	}
	buf := make([]byte, 4096)
	for {
		fds[0].Revents, fds[1].Revents, fds[2].Revents = 0, 0, 0
		// Woken by an event, or by the time a job waiting for its delay
		// is due.
		if _, err := unix.Poll(fds, w.jobs.timeout(time.Now())); err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return 0, fmt.Errorf("waiting for exit: %w", err)
		}
		if fds[0].Revents != 0 {
			return claudeExited, nil
		}
		if fds[1].Revents&(unix.POLLERR|unix.POLLHUP|unix.POLLNVAL) != 0 {
			return 0, errors.New("waiting for exit: inotify descriptor failed")
		}
		if fds[1].Revents != 0 {
			gone, err := readLockGone(w.inotify, buf)
			if err != nil || gone {
				return lockGone, err
			}
		}
		if r := fds[2].Revents; r != 0 {
			if r&(unix.POLLERR|unix.POLLHUP|unix.POLLNVAL) != 0 || !w.jobs.serve() {
				// A failed socket would wake the holder forever: give up
				// taking jobs, never the lock.
				w.jobs.close()
				fds[2].Fd = -1
			}
		}
		w.jobs.runDue(time.Now())
	}
}

// readLockGone drains inotify events and reports whether one says the lock
// directory is being removed (the deletion of a temporary file is not).
func readLockGone(fd int, buf []byte) (bool, error) {
	gone := false
	for {
		n, err := unix.Read(fd, buf)
		if errors.Is(err, unix.EAGAIN) {
			return gone, nil
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return gone, fmt.Errorf("reading inotify: %w", err)
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			nameStart := off + unix.SizeofInotifyEvent
			off = nameStart + int(ev.Len)
			if ev.Mask&unix.IN_DELETE == 0 {
				gone = true // the directory itself: deleted, moved, unmounted, or unwatched
				continue
			}
			if name := cString(buf[nameStart:min(off, n)]); name == pidFile || name == metaFile {
				gone = true
			}
		}
	}
}

// cString returns b up to its first NUL (inotify pads names with NULs).
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

func (w *linuxWatch) close() {
	unix.Close(w.pidfd)
	unix.Close(w.inotify)
}
