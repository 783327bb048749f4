package peercred

import "golang.org/x/sys/unix"

// UID is the uid of the process at the other end of the connected Unix
// socket fd (SO_PEERCRED).
func UID(fd int) (int, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}
