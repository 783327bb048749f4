package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// ReadTail reads the last n bytes of the regular file at path (all of it
// when shorter), never through a link at the path and never waiting on a
// FIFO, as Read does: how hud reads the newest lines of another agent's
// session log, which grows for as long as the session lives. The first
// line returned may be cut; the caller skips it when the file is longer
// than n.
func ReadTail(path string, n int64) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, nil, fmt.Errorf("reading %s: %w", path, ErrSymlink)
		}
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, fmt.Errorf("reading %s: %w (%v)", path, ErrNotRegular, fi.Mode().Type())
	}
	off := max(fi.Size()-n, 0)
	b := make([]byte, fi.Size()-off)
	// The file may shrink between fstat and read (rewritten): what was
	// read is still the newest there is.
	m, err := f.ReadAt(b, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fi, fmt.Errorf("reading %s: %w", path, err)
	}
	return b[:m], fi, nil
}
