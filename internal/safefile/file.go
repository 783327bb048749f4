package safefile

import (
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// Writev writes every buffer of bufs to f, in order, with as few
// writev(2) calls as they allow: a file written from many pieces (the
// store, whose untouched records are the file as read) is written without
// first being copied into one buffer. f is a file, never a pipe or a
// socket, which could take part of bufs and ask to wait. It does not
// change bufs.
func Writev(f *os.File, bufs [][]byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		werr = writev(int(fd), bufs)
		return true
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: f.Name(), Err: err}
	}
	return nil
}

// writev writes all of bufs to fd.
func writev(fd int, bufs [][]byte) error {
	for len(bufs) > 0 {
		n, err := unix.Writev(fd, bufs[:min(len(bufs), IOVMax)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrShortWrite
		}
		// Drop what was written, part of a buffer included.
		for n > 0 && len(bufs) > 0 {
			if n < len(bufs[0]) {
				bufs = append([][]byte{bufs[0][n:]}, bufs[1:]...)
				break
			}
			n -= len(bufs[0])
			bufs = bufs[1:]
		}
	}
	return nil
}

// IOVMax is the most buffers one writev(2) takes (IOV_MAX on Linux and
// macOS).
const IOVMax = 1024
