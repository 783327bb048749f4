package peercred

import "golang.org/x/sys/unix"

// UID is the uid of the process at the other end of the connected Unix
// socket fd (LOCAL_PEERCRED).
func UID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}
