package answer

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/capacitor-hud/hud/internal/peercred"
	"golang.org/x/sys/unix"
)

// The socket is made with system calls and served through *os.File, not
// the net package: the hook links this package, and net's package
// initialisation (with net/netip's and its DNS parser's) would run in
// every hook run, on every event, answering or not. An *os.File over a
// non-blocking socket is served by the runtime poller like a net.Conn:
// deadlines, and Close waking a blocked Read or accept.

// newSocket returns a non-blocking, close-on-exec Unix stream socket.
// (macOS's socket(2) takes no SOCK_NONBLOCK or SOCK_CLOEXEC flags.)
func newSocket() (int, error) {
	syscall.ForkLock.RLock()
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, os.NewSyscallError("socket", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, os.NewSyscallError("setnonblock", err)
	}
	return fd, nil
}

// listenUnix binds a new socket at path and listens on it.
func listenUnix(path string) (*os.File, error) {
	fd, err := newSocket()
	if err != nil {
		return nil, err
	}
	if err := unix.Bind(fd, &unix.SockaddrUnix{Name: path}); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "bind", Path: path, Err: err}
	}
	if err := unix.Listen(fd, 32); err != nil {
		unix.Close(fd)
		os.Remove(path)
		return nil, &os.PathError{Op: "listen", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// acceptUnix waits for the next connection on ln and returns it with its
// peer's uid. It fails once ln is closed.
func acceptUnix(ln *os.File) (*os.File, int, error) {
	rc, err := ln.SyscallConn()
	if err != nil {
		return nil, -1, err
	}
	nfd, aerr := -1, error(nil)
	err = rc.Read(func(fd uintptr) bool {
		for {
			syscall.ForkLock.RLock()
			nfd, _, aerr = unix.Accept(int(fd))
			if aerr == nil {
				unix.CloseOnExec(nfd)
			}
			syscall.ForkLock.RUnlock()
			// An interrupted accept, or a connection its client gave up
			// on, is retried at once, as internal/poll does: the poller
			// reports readiness only when something new arrives, so
			// waiting would leave a connection already queued there
			// until the next one comes.
			if aerr != unix.EINTR && aerr != unix.ECONNABORTED {
				break
			}
		}
		// false: no connection yet; wait until the socket is readable.
		return aerr != unix.EAGAIN
	})
	if err != nil {
		return nil, -1, err
	}
	if aerr != nil {
		return nil, -1, os.NewSyscallError("accept", aerr)
	}
	// An accepted socket does not inherit O_NONBLOCK (Linux); without it
	// os.NewFile would not hand it to the poller, and no deadline or
	// Close could end a read.
	if err := unix.SetNonblock(nfd, true); err != nil {
		unix.Close(nfd)
		return nil, -1, os.NewSyscallError("setnonblock", err)
	}
	return wrapConn(nfd, "")
}

// dialUnix connects to the socket at path within timeout and returns the
// connection with its peer's uid.
func dialUnix(path string, timeout time.Duration) (*os.File, int, error) {
	fd, err := newSocket()
	if err != nil {
		return nil, -1, err
	}
	deadline := time.Now().Add(timeout)
	for {
		err = unix.Connect(fd, &unix.SockaddrUnix{Name: path})
		switch {
		case err == nil || err == unix.EISCONN:
			return wrapConn(fd, path)
		case err == unix.EINPROGRESS || err == unix.EALREADY || err == unix.EINTR:
			// The connect goes on (macOS), or was interrupted and goes
			// on: wait for it, as package net does.
			if err = waitConnected(fd, time.Until(deadline)); err == nil {
				return wrapConn(fd, path)
			}
		case err == unix.EAGAIN && time.Now().Before(deadline):
			// The listener's backlog is full (Linux): try again.
			time.Sleep(time.Millisecond)
			continue
		case err == unix.EAGAIN:
			err = os.ErrDeadlineExceeded
		}
		unix.Close(fd)
		return nil, -1, &os.PathError{Op: "dial", Path: path, Err: err}
	}
}

// waitConnected waits for a connect in progress to finish.
func waitConnected(fd int, timeout time.Duration) error {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
	deadline := time.Now().Add(timeout)
	n, err := unix.Poll(fds, max(int(timeout/time.Millisecond), 1))
	for err == unix.EINTR { // a signal, not the connection's answer
		n, err = unix.Poll(fds, max(int(time.Until(deadline)/time.Millisecond), 1))
	}
	if err != nil {
		return err
	}
	if n == 0 {
		return os.ErrDeadlineExceeded
	}
	soerr, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ERROR)
	if err != nil {
		return err
	}
	if soerr != 0 {
		return unix.Errno(soerr)
	}
	return nil
}

// wrapConn reads the peer's uid from a connected socket and hands it to
// the runtime poller.
func wrapConn(fd int, name string) (*os.File, int, error) {
	uid, err := peercred.UID(fd)
	if err != nil {
		unix.Close(fd)
		return nil, -1, fmt.Errorf("reading the peer's credentials: %w", err)
	}
	return os.NewFile(uintptr(fd), name), uid, nil
}
