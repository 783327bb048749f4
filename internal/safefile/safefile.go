package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// WriteFile replaces path with data atomically and durably: readers see the
// old file or the new one, never a part, and once it returns the new one
// survives a power cut. The directory is created (0700) if missing.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return replace(path, data, perm, true)
}

// Replace is WriteFile without the fsyncs: just as atomic for readers and
// for a writer killed midway, but a power cut may bring back the previous
// version. It is for files that describe live processes or are rebuilt
// from events, which the hook rewrites on Claude's hot path, where an
// fsync would wait on the disk at every event and the next event writes the file again anyway: the break timers, the work
// session, a session's activity, a lock's meta. After a crash the
// processes they describe are gone too, so an older version costs nothing.
func Replace(path string, data []byte, perm fs.FileMode) error {
	return replace(path, data, perm, false)
}

func replace(path string, data []byte, perm fs.FileMode, durable bool) error {
	dir := filepath.Dir(path)
	// The temp file is opened with O_EXCL: a link planted at its name is
	// never followed, and the rename replaces a link at path itself
	// rather than writing through it. The directory is made only when it
	// is missing: the hook replaces files in directories that exist on
	// nearly every run, and a stat each time is a system call for nothing.
	prefix := "." + filepath.Base(path) + tempInfix
	tmp, err := os.CreateTemp(dir, prefix+"*")
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("creating %s: %w", dir, err)
		}
		tmp, err = os.CreateTemp(dir, prefix+"*")
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// os.CreateTemp made it 0600, which no umask in use narrows: any other
	// mode is set here, past the umask.
	if perm.Perm() != 0o600 {
		if err := tmp.Chmod(perm.Perm()); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if durable {
		if err := tmp.Sync(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if durable {
		err = os.Rename(tmp.Name(), path)
	} else {
		err = SwapIn(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	done = true
	if durable {
		syncDir(dir)
	}
	return nil
}

// tempInfix is in the name of every temp file WriteFile and Replace make:
// ".<name>" + tempInfix + random digits.
const tempInfix = ".tmp-"

// TidyTemps removes the temp files of WriteFile and Replace in dir last
// modified before cutoff: a writer killed between creating one and
// renaming it leaves it behind, and nothing else ever will. A live
// writer's temp file exists for milliseconds, so a cutoff a minute back
// never races one. Links are removed, never followed. It returns how many
// it removed; a missing dir has none.
func TidyTemps(dir string, cutoff time.Time) (int, error) {
	d, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	// Unsorted names and an Lstat of the few candidates only: the
	// activity directory holds a file per session.
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, name := range names {
		if !isTempName(name) {
			continue
		}
		p := filepath.Join(dir, name)
		info, err := os.Lstat(p)
		if err != nil || info.IsDir() || !info.ModTime().Before(cutoff) {
			continue
		}
		if os.Remove(p) == nil {
			removed++
		}
	}
	return removed, nil
}

// isTempName reports whether name is one WriteFile or Replace gives a
// temp file: a dot, the file's name, tempInfix, digits.
func isTempName(name string) bool {
	if len(name) < 2 || name[0] != '.' {
		return false
	}
	i := strings.LastIndex(name, tempInfix)
	if i <= 1 {
		return false
	}
	digits := name[i+len(tempInfix):]
	if digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// syncDir makes a rename in dir durable. Errors are ignored: some file
// systems refuse fsync on directories, and the rename itself succeeded,
// so every reader already sees the new file.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Held reports whether another process holds an exclusive flock on path
// (a missing file is not held). It takes a shared lock without waiting and
// drops it at once, so it never disturbs the holder.
func Held(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return errors.Is(unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB), unix.EWOULDBLOCK)
}

// ErrLockTimeout is returned when a lock could not be taken in time.
var ErrLockTimeout = errors.New("timed out waiting for lock")

// lockRetry is how long Lock sleeps between attempts. flock has no timed
// form; a blocking flock left running in a goroutine after the deadline
// would, in a long-lived process such as the tray, keep a thread and a
// descriptor and then take the lock for nobody (LockFile, for a process
// that exits within moments, does just that).
const lockRetry = 2 * time.Millisecond

// Lock takes an exclusive flock on the file at path (created 0600 if
// missing), waiting at most timeout. The returned function releases it. The
// kernel releases the lock if the process dies, so a crashed writer never
// wedges the others.
func Lock(path string, timeout time.Duration) (unlock func(), err error) {
	// Never through a link: a lock file is only ever hud's own. The
	// directory is made only when it is missing (see replace).
	const flags = os.O_RDWR | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		f, err = os.OpenFile(path, flags, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil // closing releases the flock
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, ErrLockTimeout)
		}
		time.Sleep(lockRetry)
	}
}

// LockFile takes an exclusive flock on f within timeout, for a process
// that exits within moments (the hook). flock(2) has no timeout, so a
// contended lock is waited for on another goroutine; if it is given up,
// that goroutine closes f once flock returns (closing releases a lock it
// may have got), so the descriptor is never reused under it. On failure f
// is (or will be) closed. Unlike Lock, which polls, the wait is in the
// kernel: when many hooks fire at once, each gets the lock the moment the
// previous one lets go, not a poll interval later. Only a process that
// exits soon can afford the goroutine it may leave behind.
func LockFile(f *os.File, timeout time.Duration) error {
	fd := int(f.Fd())
	err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.EWOULDBLOCK) {
		f.Close()
		return fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	done := make(chan error, 1)
	go func() {
		var err error
		for {
			if err = unix.Flock(fd, unix.LOCK_EX); !errors.Is(err, unix.EINTR) {
				break
			}
		}
		done <- err
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return fmt.Errorf("locking %s: %w", f.Name(), err)
		}
		return nil
	case <-timer.C:
		go func() {
			<-done
			f.Close()
		}()
		return fmt.Errorf("locking %s: %w", f.Name(), ErrLockTimeout)
	}
}
