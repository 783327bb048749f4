package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Owned checks that path belongs to uid and that nobody else can change
// what it names: with every link resolved, each directory on the way is a
// real directory owned by uid or root that others cannot write to (unless
// it is sticky, as /tmp is, where others cannot rename or remove what uid
// owns), and the last component is owned by uid (and, a directory, not
// writable by others either: what it holds is what the caller reads, or
// talks to). It returns the resolved
// path, the one the checks were made on (hand that one on, not path), and
// what lstat says of it, for the caller to check its type.
//
// A recorded path (a terminal's socket, a config directory) may come from
// an environment a project set; a file another user owns there could
// answer for the person, or be swapped for one that does.
func Owned(path string, uid int) (string, fs.FileInfo, error) {
	if !filepath.IsAbs(path) {
		return "", nil, fmt.Errorf("%q is not an absolute path", path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", nil, err
	}
	sep := string(filepath.Separator)
	parts := strings.Split(strings.TrimPrefix(real, sep), sep)
	dir := sep
	for _, name := range parts[:len(parts)-1] {
		dir = filepath.Join(dir, name)
		if err := safeDir(dir, uid); err != nil {
			return "", nil, err
		}
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return "", nil, err
	}
	if owner := Owner(fi); owner != uid {
		return "", nil, fmt.Errorf("%s belongs to uid %d, not to this user (uid %d)", real, owner, uid)
	}
	if fi.IsDir() {
		if err := safeDir(real, uid); err != nil {
			return "", nil, err
		}
	}
	return real, fi, nil
}

// safeDir checks one directory on the way to an owned path. Like tmux's
// check of its socket directory, only others' write permission counts: a
// group-writable directory (umask 002) is the person's private group's.
func safeDir(dir string, uid int) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if owner := Owner(fi); owner != uid && owner != 0 {
		return fmt.Errorf("%s belongs to uid %d, neither this user (uid %d) nor root", dir, owner, uid)
	}
	if fi.Mode().Perm()&0o002 != 0 && fi.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("%s is writable by anyone (mode %v)", dir, fi.Mode().Perm())
	}
	return nil
}

// Owner is the uid that owns the file fi describes; -1 where the system
// does not say.
func Owner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}
