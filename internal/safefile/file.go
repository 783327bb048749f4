package safefile

import (
	"io"
	"io/fs"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// File is an open file that Go's runtime poller never sees. os.OpenFile
// offers every file it opens to the poller (fcntl to non-blocking mode,
// epoll_ctl, fcntl back for a regular file it refuses; the first file
// also creates the epoll instance and its eventfd), work the hook would
// do for each of the dozen files it opens per event. Regular files,
// directories and /proc files never wait in the poller anyway. The methods behave as *os.File's do, errors included
// (*fs.PathError, io.EOF).
type File struct {
	fd   int
	name string
}

// OpenFile opens name with flag (os.O_* and syscall.O_* bits) and perm,
// close-on-exec, as os.OpenFile does.
func OpenFile(name string, flag int, perm fs.FileMode) (*File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &File{fd: fd, name: name}, nil
	}
}

// Fd returns the file descriptor.
func (f *File) Fd() int { return f.fd }

// Name returns the name the file was opened with.
func (f *File) Name() string { return f.name }

// Read reads up to len(b) bytes; it returns io.EOF at the end of the file.
func (f *File) Read(b []byte) (int, error) {
	n, err := ignoringEINTR(func() (int, error) { return syscall.Read(f.fd, b) })
	return f.result(n, err, "read", len(b))
}

// ReadAt reads up to len(b) bytes at off, as io.ReaderAt.
func (f *File) ReadAt(b []byte, off int64) (int, error) {
	done := 0
	for done < len(b) {
		n, err := ignoringEINTR(func() (int, error) { return syscall.Pread(f.fd, b[done:], off+int64(done)) })
		if n, err = f.result(n, err, "read", len(b)-done); err != nil {
			return done, err
		}
		done += n
	}
	return done, nil
}

// Write writes all of b, or returns an error.
func (f *File) Write(b []byte) (int, error) {
	return f.writeAll(b, func(b []byte, done int) (int, error) { return syscall.Write(f.fd, b) })
}

// Writev writes every buffer of bufs, in order, with as few writev(2)
// calls as they allow. It does not change bufs.
func (f *File) Writev(bufs [][]byte) error {
	for len(bufs) > 0 {
		n, err := ignoringEINTR(func() (int, error) { return unix.Writev(f.fd, bufs[:min(len(bufs), IOVMax)]) })
		if err != nil {
			return &fs.PathError{Op: "write", Path: f.name, Err: err}
		}
		if n == 0 {
			return &fs.PathError{Op: "write", Path: f.name, Err: io.ErrShortWrite}
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

// WriteAt writes all of b at off.
func (f *File) WriteAt(b []byte, off int64) (int, error) {
	return f.writeAll(b, func(b []byte, done int) (int, error) { return syscall.Pwrite(f.fd, b, off+int64(done)) })
}

// writeAll calls write with what is left of b, and how much is done,
// until all of b is written.
func (f *File) writeAll(b []byte, write func(rest []byte, done int) (int, error)) (int, error) {
	done := 0
	for done < len(b) {
		n, err := ignoringEINTR(func() (int, error) { return write(b[done:], done) })
		if err != nil {
			return done, &fs.PathError{Op: "write", Path: f.name, Err: err}
		}
		if n == 0 {
			return done, &fs.PathError{Op: "write", Path: f.name, Err: io.ErrShortWrite}
		}
		done += n
	}
	return done, nil
}

// Stat returns the open file's information, as os.File.Stat does (Sys is
// a *syscall.Stat_t).
func (f *File) Stat() (fs.FileInfo, error) {
	var st syscall.Stat_t
	if _, err := ignoringEINTR(func() (int, error) { return 0, syscall.Fstat(f.fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: f.name, Err: err}
	}
	return &fileStat{name: filepath.Base(f.name), st: st}, nil
}

// Close closes the file; closing releases any flock taken through it.
// A second Close is an error (fs.ErrClosed) that closes nothing: by then
// the descriptor's number may be another file's. A File is one
// goroutine's, as the hook's files are.
func (f *File) Close() error {
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.name, Err: fs.ErrClosed}
	}
	fd := f.fd
	f.fd = -1
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// result turns a read's outcome into io.Reader's: io.EOF for 0 bytes
// read into a non-empty buffer, a *fs.PathError for a failure.
func (f *File) result(n int, err error, op string, want int) (int, error) {
	switch {
	case err != nil:
		return 0, &fs.PathError{Op: op, Path: f.name, Err: err}
	case n == 0 && want > 0:
		return 0, io.EOF
	}
	return n, nil
}

func ignoringEINTR(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// fileStat is fs.FileInfo from a stat(2) result, as the os package makes
// it.
type fileStat struct {
	name string
	st   syscall.Stat_t
}

func (s *fileStat) Name() string       { return s.name }
func (s *fileStat) Size() int64        { return s.st.Size }
func (s *fileStat) ModTime() time.Time { return modTime(&s.st) }
func (s *fileStat) IsDir() bool        { return s.Mode().IsDir() }
func (s *fileStat) Sys() any           { return &s.st }

func (s *fileStat) Mode() fs.FileMode {
	mode := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if s.st.Mode&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if s.st.Mode&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if s.st.Mode&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// SameFile reports whether a and b describe the same file, as os.SameFile
// does, for information from File.Stat and from the os package alike
// (os.SameFile answers false for anything the os package did not make).
func SameFile(a, b fs.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Dev == sb.Dev && sa.Ino == sb.Ino
}
