package lockholder

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// The holder takes jobs: work a hook hands it to start, so that the hook
// sends one datagram and exits instead of waiting for a fork and exec,
// which on a loaded machine waits for a CPU before the child can exec
// (docs/performance.md has the figures). The holder is already running
// for the hook's Claude process, asleep in its wait; the job socket is
// one more thing it waits on.
//
// The socket is a unix datagram socket in the lock directory, which is
// 0700 and the person's own, so only they can reach it. A datagram is one
// whole job or nothing, and sending one never waits for the holder: when
// no live holder takes it (an older hud's holder without a socket, the
// polling fallback, a holder killed with kill -9, one ending right now, a
// lock named for another cwd) the send fails at once and the hook starts
// the job itself. What a job says, and how it is written, is the business
// of whoever passes the handler to HoldMain (hud/activity's launch); this
// package only carries it.
const (
	// jobSocket is the socket's name in the lock directory. The version of
	// the jobs' encoding is part of it: a hook whose jobs a running holder
	// of an older hud could not read finds no socket of its version and
	// starts the job itself, rather than sending it to be dropped.
	jobSocket = "jobs-v2.sock"
	// MaxJob bounds a job's size, sent and received.
	MaxJob = 16 << 10
	// maxSocketPath is the longest socket path a sockaddr holds (the array
	// also takes the terminating NUL): 107 bytes on Linux, 103 on macOS.
	maxSocketPath = len(unix.RawSockaddrUnix{}.Path) - 1
	// drainLimit bounds how many datagrams the holder reads on its way
	// out; the kernel's queue holds fewer. It also bounds the jobs
	// waiting for their delay.
	drainLimit = 1024
	// jobDelay is how long a job waits before the holder runs it. The
	// hook that sent it still has its last steps to take, and Claude the
	// turn to end: a worker started at once (a fork, an exec, a Go
	// runtime starting) competes with both for the CPUs, and lengthens
	// the hook's run on a machine with few of them. Nobody waits for a
	// checkpoint.
	jobDelay = 50 * time.Millisecond
)

// ErrNoInbox says no live holder takes jobs at that lock directory. It is
// expected (see above): the caller starts the job itself.
var ErrNoInbox = errors.New("no lock holder takes jobs there")

// SendJob hands job to the holder of the lock directory dir without
// waiting for it. It uses raw system calls, not package net, whose first
// use starts Go's network poller: a cost every Stop would pay, measured
// in docs/performance.md. Any error means the holder did not get the job;
// ErrNoInbox marks the expected ones.
func SendJob(dir string, job []byte) error {
	if len(job) > MaxJob {
		return fmt.Errorf("sending job: %d bytes, over %d", len(job), MaxJob)
	}
	name := filepath.Join(dir, jobSocket)
	if len(name) > maxSocketPath {
		// The holder binds no socket there either.
		return fmt.Errorf("%w: %s is longer than a socket address", ErrNoInbox, name)
	}
	fd, err := newJobSocket()
	if err != nil {
		return fmt.Errorf("sending job: %w", err)
	}
	defer unix.Close(fd)
	to := &unix.SockaddrUnix{Name: name}
	for {
		err = unix.Sendto(fd, job, sendFlags, to)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
		// No socket: no holder of this version, or no lock by that name.
		return fmt.Errorf("%w: %w", ErrNoInbox, err)
	case errors.Is(err, unix.ECONNREFUSED), errors.Is(err, unix.EPIPE):
		// A dead holder's socket, or a holder on its way out.
		return fmt.Errorf("%w: %w", ErrNoInbox, err)
	}
	return fmt.Errorf("sending job to %s: %w", name, err)
}

// An inbox is a holder's job socket. A nil *inbox is a holder that takes
// no jobs; its methods do nothing.
type inbox struct {
	fd     int
	dirFD  int // the lock directory, held open by the holder
	handle func(job []byte)
	buf    []byte
	oob    []byte
	// pending are the jobs received and not run yet, oldest first, each
	// due jobDelay after it came.
	pending []pendingJob
	delay   time.Duration
}

// pendingJob is a job waiting for its time.
type pendingJob struct {
	due time.Time
	job []byte
}

// openInbox binds the holder's job socket in its lock directory (dir,
// open as dirFD) and returns nil when the holder can take no jobs there;
// the holder holds the lock all the same, and hooks start their jobs
// themselves. The caller holds the lock's flock: no other live holder
// binds in this directory.
func openInbox(dir string, dirFD int, handle func(job []byte)) *inbox {
	name := filepath.Join(dir, jobSocket)
	if handle == nil || len(name) > maxSocketPath {
		return nil
	}
	// A socket already there is a dead holder's (kill -9 leaves it; only
	// the flock's owner binds): replace it. Anything else by that name is
	// not the holder's to remove, and it takes no jobs.
	var st unix.Stat_t
	switch err := unix.Fstatat(dirFD, jobSocket, &st, unix.AT_SYMLINK_NOFOLLOW); {
	case err == nil && st.Mode&unix.S_IFMT == unix.S_IFSOCK:
		if unix.Unlinkat(dirFD, jobSocket, 0) != nil {
			return nil
		}
	case err == nil, !errors.Is(err, unix.ENOENT):
		return nil
	}
	fd, err := newJobSocket()
	if err != nil {
		return nil
	}
	// Before bind, so that no datagram arrives without what the check
	// needs.
	if err := prepareInbox(fd); err != nil {
		unix.Close(fd)
		return nil
	}
	if err := unix.Bind(fd, &unix.SockaddrUnix{Name: name}); err != nil {
		unix.Close(fd)
		return nil
	}
	return &inbox{
		fd:     fd,
		dirFD:  dirFD,
		handle: handle,
		buf:    make([]byte, MaxJob+1),
		oob:    make([]byte, oobSize),
		delay:  jobDelay,
	}
}

// pollFD is the descriptor to wait on, -1 (which poll ignores) for none.
func (in *inbox) pollFD() int {
	if in == nil {
		return -1
	}
	return in.fd
}

// serve takes every job waiting on the socket, to be run once its delay
// is over (runDue), and drops anything that is not one: too long, from
// another user, with descriptors attached. It reports false when the
// socket failed; the caller then closes it and goes on holding the lock.
func (in *inbox) serve() bool {
	for range drainLimit {
		n, oobn, flags, _, err := unix.Recvmsg(in.fd, in.buf, in.oob, recvFlags)
		switch {
		case errors.Is(err, unix.EAGAIN):
			return true
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return false
		case n == 0 && oobn == 0:
			// The end of the queue once the socket is shut down (or an
			// empty datagram, which is no job either).
			return true
		}
		fromOwner := senderIsOwner(in.oob[:oobn])
		if !fromOwner || flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 || n == 0 {
			continue
		}
		if len(in.pending) >= drainLimit {
			in.run(in.pending[0].job) // never more waiting than that
			in.pending = in.pending[1:]
		}
		in.pending = append(in.pending, pendingJob{due: time.Now().Add(in.delay), job: append([]byte(nil), in.buf[:n]...)})
	}
	return true
}

// timeout is how long the holder may wait before a job is due, in
// milliseconds as poll(2) takes it: -1 for no job waiting.
func (in *inbox) timeout(now time.Time) int {
	if in == nil || len(in.pending) == 0 {
		return -1
	}
	d := in.pending[0].due.Sub(now)
	if d <= 0 {
		return 0
	}
	return int((d + time.Millisecond - 1) / time.Millisecond)
}

// runDue runs the jobs whose delay is over at now.
func (in *inbox) runDue(now time.Time) {
	if in == nil {
		return
	}
	for len(in.pending) > 0 && !in.pending[0].due.After(now) {
		job := in.pending[0].job
		in.pending = in.pending[1:]
		in.run(job)
	}
}

// run hands one job to the handler. Nothing a job says may end the
// holder: it would give up the lock.
func (in *inbox) run(job []byte) {
	defer func() { _ = recover() }()
	in.handle(job)
}

// drain runs the jobs already sent before the holder exits, and makes
// every later send fail (EPIPE, then no socket), so that the hook starts
// those jobs itself: a checkpoint at the very end of a session is the one
// that says how it ended.
func (in *inbox) drain() {
	if in == nil {
		return
	}
	if in.fd >= 0 && unix.Shutdown(in.fd, unix.SHUT_RD) == nil {
		in.serve()
	}
	in.close()
	for _, p := range in.pending {
		in.run(p.job)
	}
	in.pending = nil
}

// close removes the socket and closes it. It removes the name through
// the lock directory the holder holds open, not by path: the directory
// may have been moved, and another lock made at its old path.
func (in *inbox) close() {
	if in == nil || in.fd < 0 {
		return
	}
	var st unix.Stat_t
	if unix.Fstatat(in.dirFD, jobSocket, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFSOCK {
		unix.Unlinkat(in.dirFD, jobSocket, 0)
	}
	unix.Close(in.fd)
	in.fd = -1
}

// closeRights closes the descriptors an SCM_RIGHTS message brought in.
func closeRights(m *unix.SocketControlMessage) {
	fds, err := unix.ParseUnixRights(m)
	if err != nil {
		return
	}
	for _, fd := range fds {
		unix.Close(fd)
	}
}
