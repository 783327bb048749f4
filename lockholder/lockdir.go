package lockholder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/resolver"
)

// The files of a lock directory. Anything else in it is a temporary file of
// an atomic write.
const (
	pidFile  = "pid"
	metaFile = "meta.json"
)

// creatingGrace is how long a lock directory without a readable meta.json
// counts as being created by a racing Ensure rather than as junk. Creating
// one takes well under a millisecond; the margin is for a loaded machine.
const creatingGrace = 5 * time.Second

// locksOf lists the lock directories in sessions named for pid, whatever
// path hash they carry.
func locksOf(sessions string, pid int) ([]string, error) {
	entries, err := safefile.ListDir(sessions, "locks")
	if err != nil {
		return nil, err
	}
	suffix := "-" + strconv.Itoa(pid) + ".lock"
	var dirs []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), suffix) || !e.IsDir() {
			continue
		}
		if _, p, err := paths.ParseLockName(e.Name()); err == nil && p == pid {
			dirs = append(dirs, filepath.Join(sessions, e.Name()))
		}
	}
	return dirs, nil
}

// readMeta reads dir's meta.json.
func readMeta(dir string) (resolver.LockMeta, error) {
	b, _, err := safefile.Read(filepath.Join(dir, metaFile), 64<<10, safefile.NoFollow)
	if err != nil {
		return resolver.LockMeta{}, fmt.Errorf("reading lock meta: %w", err)
	}
	var m resolver.LockMeta
	if err := m.UnmarshalJSON(b); err != nil {
		return m, fmt.Errorf("reading lock meta %s: %w", dir, err)
	}
	return m, nil
}

// writeMeta replaces dir's meta.json atomically.
func writeMeta(dir string, m resolver.LockMeta) error {
	b, err := m.MarshalJSON()
	if err != nil {
		return fmt.Errorf("encoding lock meta: %w", err)
	}
	return writeFileAtomic(dir, metaFile, append(b, '\n'))
}

// writePID writes dir's pid file. It needs no atomic write: Ensure writes
// it before meta.json, and a lock counts as complete only once meta.json
// exists.
func writePID(dir string, pid int) error {
	return os.WriteFile(filepath.Join(dir, pidFile), []byte(strconv.Itoa(pid)+"\n"), 0o600)
}

// writeFileAtomic replaces dir/name with data (mode 0600) atomically but
// without fsync (safefile.Replace): a lock describes running processes,
// which a crash of the machine ends anyway, and the hook that writes it is
// on Claude's critical path.
func writeFileAtomic(dir, name string, data []byte) error {
	return safefile.Replace(filepath.Join(dir, name), data, 0o600)
}

// isYoung reports whether dir changed within creatingGrace of now.
func isYoung(dir string, now time.Time) bool {
	info, err := os.Lstat(dir)
	return err == nil && now.Sub(info.ModTime()) < creatingGrace
}

// removeLock removes a lock directory. A concurrent atomic write may add a
// temporary file between RemoveAll's listing and its rmdir, hence the retry.
func removeLock(dir string) error {
	var err error
	for range 3 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
	}
	return fmt.Errorf("removing lock: %w", err)
}

// openNoFollow opens path read-only (a directory too) without following a
// final symlink.
func openNoFollow(path string) (int, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}

// flockNB tries to take a flock without waiting. It reports false when
// another open file holds a conflicting lock.
func flockNB(fd, how int) (bool, error) {
	for {
		err := unix.Flock(fd, how|unix.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, unix.EINTR):
			continue
		}
		return false, fmt.Errorf("flock: %w", err)
	}
}

// A holder proves it is alive by an exclusive flock on its lock's pid
// file, held for its whole life: the kernel drops it when the holder dies,
// even by kill -9, so nothing can go stale and no pid can be reused. (A
// regular file, not the directory: flock on directories is not portable.)
// The pid file is written once, in place, never renamed over, so the lock
// stays on the one file every party opens.
//
// holderAlive asks without disturbing it. It tries a shared lock, which
// fails while the holder holds its exclusive one; when it succeeds there is
// no holder, and the shared lock is dropped at once. (An Ensure that tries
// to start a holder in the microseconds a probe holds the shared lock
// takes it for a live holder; the next event starts one.)
func holderAlive(dir string) bool {
	fd, err := openNoFollow(filepath.Join(dir, pidFile))
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	got, err := flockNB(fd, unix.LOCK_SH)
	return err == nil && !got
}

// startHolder starts a holder for dir unless one holds it already. The
// caller takes the holder's flock itself, before starting the holder, and
// hands the locked descriptor down: the lock never lapses between the two,
// so of any number of racing callers exactly one sees it free and starts a
// holder.
func startHolder(home, dir string, claude proc.Process, holderExe string) error {
	fd, err := openNoFollow(filepath.Join(dir, pidFile))
	if err != nil {
		return fmt.Errorf("starting lock holder: %w", err)
	}
	lockFile := os.NewFile(uintptr(fd), filepath.Join(dir, pidFile))
	defer lockFile.Close() // the holder keeps its own copy
	got, err := flockNB(fd, unix.LOCK_EX)
	if err != nil {
		return fmt.Errorf("starting lock holder: %w", err)
	}
	if !got {
		return nil // a live holder, or a racing Ensure starting one
	}
	return spawnHolder(holderExe, home, dir, lockFile, claude)
}

// sameFile reports whether path still names the file open as fd, and not
// one made in its place.
func sameFile(path string, fd int) bool {
	var open, named unix.Stat_t
	if err := unix.Fstat(fd, &open); err != nil {
		return false
	}
	if err := unix.Lstat(path, &named); err != nil {
		return false
	}
	return open.Dev == named.Dev && open.Ino == named.Ino
}
