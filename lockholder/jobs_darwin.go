package lockholder

import "golang.org/x/sys/unix"

const (
	sendFlags = 0 // SO_NOSIGPIPE is set on the socket instead
	recvFlags = 0
	// oobSize holds a few descriptors a sender might attach (closed).
	oobSize = 4*16 + 64
)

// newJobSocket makes a non-blocking unix datagram socket that can carry
// MaxJob: macOS caps a datagram at the sender's send buffer
// (net.local.dgram.maxdgram, 2 KiB) and queues only what the receiver's
// buffer holds (net.local.dgram.recvspace).
func newJobSocket() (int, error) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM, 0)
	if err != nil {
		return -1, err
	}
	unix.CloseOnExec(fd)
	for _, opt := range [][2]int{
		{unix.SO_NOSIGPIPE, 1},
		{unix.SO_SNDBUF, MaxJob + 1024},
		{unix.SO_RCVBUF, 8 * MaxJob},
	} {
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, opt[0], opt[1]); err != nil {
			unix.Close(fd)
			return -1, err
		}
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// prepareInbox has nothing to set: see senderIsOwner.
func prepareInbox(int) error { return nil }

// senderIsOwner reports whether a datagram with the control messages oob
// may be a job. macOS tells a datagram socket nothing of its sender
// (LOCAL_PEERCRED needs a connection), so the lock directory's permissions
// are the check: it is 0700 and the person's, and only they can reach a
// socket in it. Descriptors a sender attached are closed, and the datagram
// dropped.
func senderIsOwner(oob []byte) bool {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return false
	}
	rights := false
	for i := range msgs {
		if msgs[i].Header.Level == unix.SOL_SOCKET && msgs[i].Header.Type == unix.SCM_RIGHTS {
			closeRights(&msgs[i])
			rights = true
		}
	}
	return !rights
}
