package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// MaxRead is the size limit for the files hud reads that others may have
// written (a project's files, settings.json): every real one is a few KiB,
// and a link to /dev/zero or a multi-gigabyte file must cost nothing.
const MaxRead = 1 << 20

// Links says whether Read follows a symbolic link at the path's last
// component.
type Links bool

const (
	// Follow is for the person's own files (settings.json kept in a
	// dotfiles repository is often a link).
	Follow Links = true
	// NoFollow is for every file inside a project, which a repository
	// chooses: a planted link must not make hud read ~/.ssh/id_rsa.
	NoFollow Links = false
)

var (
	// ErrNotRegular is returned for a FIFO, a device, a directory, a socket.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is returned for a file over the limit.
	ErrTooLarge = errors.New("file too large")
	// ErrSymlink is returned, with NoFollow, for a link at the path.
	ErrSymlink = errors.New("is a symbolic link")
)

// Read reads the regular file at path, at most limit bytes, and returns
// its content and what fstat said of it. The open never blocks: it is
// O_NONBLOCK, so a FIFO (which would wait for a writer forever) opens at
// once and is then refused by fstat, like a device or a directory; only
// then is anything read, and never more than limit+1 bytes. A missing
// file's error wraps fs.ErrNotExist.
func Read(path string, limit int64, links Links) ([]byte, fs.FileInfo, error) {
	f, fi, err := openRegular(path, links)
	if err != nil {
		return nil, fi, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, fi, fmt.Errorf("reading %s: %w (%d bytes, limit %d)", path, ErrTooLarge, fi.Size(), limit)
	}
	// The size may grow between fstat and read: the limit holds anyway.
	// The buffer is sized from fstat, one byte over to see the end: the
	// hook reads its 175 KB store on every event, and growing a buffer
	// from io.ReadAll's 512 bytes costs it a dozen copies and allocations.
	b, err := readAll(io.LimitReader(f, limit+1), fi.Size()+1)
	if err != nil {
		return nil, fi, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fi, fmt.Errorf("reading %s: %w (limit %d)", path, ErrTooLarge, limit)
	}
	return b, fi, nil
}

// readAll is io.ReadAll starting with a buffer of size bytes.
func readAll(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// ErrNotDir is returned by RealDir for a path that is a link or a file.
var ErrNotDir = errors.New("not a real directory")

// RealDir makes sure path is a directory itself, not a link to one,
// creating it with perm when missing (its parent must exist). It is how
// hud enters a project's .claude before writing there: a repository that
// ships .claude as a link to ~/.ssh or /etc must not have hud write
// through it.
func RealDir(path string, perm fs.FileMode) error {
	if err := os.Mkdir(path, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %w (%v)", path, ErrNotDir, fi.Mode().Type())
	}
	return nil
}

// ReadTail is Read for the last n bytes of a file that grows without
// bound (an agent's transcript): opened the same way, never blocking,
// refused unless regular, and never more than n bytes read. The first
// line of what it returns is usually cut.
func ReadTail(path string, n int64, links Links) ([]byte, error) {
	f, fi, err := openRegular(path, links)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	off := max(fi.Size()-n, 0)
	b := make([]byte, fi.Size()-off)
	m, err := f.ReadAt(b, off)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return b[:m], nil
}

// openRegular opens the regular file at path for Read and ReadTail:
// O_NONBLOCK, so a FIFO opens at once and is then refused by fstat like a
// device or a directory; with NoFollow, a link at the path is refused
// (ErrSymlink). fi is set whenever fstat ran.
func openRegular(path string, links Links) (f *os.File, fi fs.FileInfo, err error) {
	flags := os.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
	if links == NoFollow {
		flags |= unix.O_NOFOLLOW
	}
	f, err = os.OpenFile(path, flags, 0)
	if err != nil {
		if links == NoFollow && errors.Is(err, unix.ELOOP) {
			return nil, nil, fmt.Errorf("reading %s: %w", path, ErrSymlink)
		}
		return nil, nil, err
	}
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fi, fmt.Errorf("reading %s: %w (%v)", path, ErrNotRegular, fi.Mode().Type())
	}
	return f, fi, nil
}
