package lockholder

import (
	"os"

	"golang.org/x/sys/unix"
)

const (
	sendFlags = unix.MSG_NOSIGNAL     // EPIPE from a holder on its way out, never SIGPIPE
	recvFlags = unix.MSG_CMSG_CLOEXEC // descriptors a sender attaches never reach a worker
	// oobSize holds the sender's credentials and a few descriptors; more
	// are closed by the kernel (MSG_CTRUNC, and the datagram is dropped).
	oobSize = 64 + 4*16
)

// newJobSocket makes a non-blocking unix datagram socket.
func newJobSocket() (int, error) {
	return unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
}

// prepareInbox has the kernel attach each sender's credentials
// (SO_PASSCRED): they are the kernel's word, not the sender's (only a
// process with CAP_SETUID may claim another uid).
func prepareInbox(fd int) error {
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_PASSCRED, 1)
}

// senderIsOwner reports whether a datagram with the control messages oob
// came from the holder's own user. The lock directory's permissions
// already keep others out; this holds even where they were loosened.
// Descriptors a sender attached are closed.
func senderIsOwner(oob []byte) bool {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return false
	}
	owner, rights := false, false
	for i := range msgs {
		m := &msgs[i]
		if m.Header.Level != unix.SOL_SOCKET {
			continue
		}
		switch m.Header.Type {
		case unix.SCM_CREDENTIALS:
			if cred, err := unix.ParseUnixCredentials(m); err == nil {
				owner = int(cred.Uid) == os.Getuid()
			}
		case unix.SCM_RIGHTS:
			closeRights(m)
			rights = true
		}
	}
	return owner && !rights
}
