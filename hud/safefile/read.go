package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is returned by ReadRegular for a link, a FIFO, a device
// or a directory where a file was expected.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned by ReadRegular for a file over its limit.
var ErrTooLarge = errors.New("file too large")

// ReadRegular reads the regular file at path, at most limit bytes, and
// returns its info from the same open file. It never follows a link at
// path (ErrNotRegular), never blocks in open (a FIFO planted at the name
// would hang the reader; it opens non-blocking and is then refused as not
// regular), and never reads past limit (ErrTooLarge), so a file someone
// else chose cannot cost the reader its time or memory. A file that
// shrinks while read is returned as read, with nil info: it was being
// changed by a writer that does not replace it atomically.
func ReadRegular(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
		}
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if info.Size() > limit {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, info.Size(), limit)}
	}
	data := make([]byte, info.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, nil, err
	}
	if n < len(data) {
		return data[:n], nil, nil
	}
	return data, info, nil
}
