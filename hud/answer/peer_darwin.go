package answer

import "golang.org/x/sys/unix"

// peerUIDOf is the uid of the process at the other end of socket fd, as
// the kernel recorded it when the connection was made (LOCAL_PEERCRED).
func peerUIDOf(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}
