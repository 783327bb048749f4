package safefile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// SwapIn puts the file tmp in place of path, atomically for readers, and
// removes tmp's name. It is a rename, done as renameat2(RENAME_EXCHANGE)
// and an unlink of what was swapped out when path exists: ext4 (with its
// default auto_da_alloc) starts writing back a file renamed over another
// at the rename, which the hook would wait on in every run, while an
// exchange is not treated that way (ext4's cross-rename skips it). The
// old file, unlinked, is then usually never written to disk at all.
// Where the exchange is refused (another file system, an old kernel, no
// old file yet) it is a plain rename.
//
// Not durable: a crash may bring back the old content (see WriteFile).
func SwapIn(tmp, path string) error {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE)
	if err != nil {
		return os.Rename(tmp, path)
	}
	if err := unix.Unlink(tmp); err != nil {
		if errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EPERM) {
			// path was a directory, which a rename would have refused:
			// put it back and refuse too.
			unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE)
			return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: unix.EISDIR}
		}
		// The new file is in place; only the old one's name is left over
		// (the next write or TidyTemps removes it).
	}
	return nil
}
