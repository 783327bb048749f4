package hook

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/resolver"
)

const (
	// lockTimeout is how long the hook waits for the store lock before it
	// gives the event up: a hook that hangs holds up the person's Claude.
	lockTimeout = 2 * time.Second
	// keepCorrupt is how many quarantined stores are kept.
	keepCorrupt = 3
	// corruptPrefix starts the name of a quarantined store, followed by
	// the Unix time it was moved aside.
	corruptPrefix = "sessions.json.corrupt-"
)

var errLockTimeout = errors.New("store lock busy for " + lockTimeout.String() + ": event not recorded")

// updateStore runs edit on the store under its exclusive lock and, when
// edit reports a change, writes the result: a temp file in the same
// directory, fsync, rename, fsync of the directory. A store that does not
// decode, or is not version 3, is moved aside first (never thrown away).
func updateStore(l resolver.Layout, now time.Time, log *debugLog, edit func(*table) bool) error {
	lock, err := lockStore(l, lockTimeout)
	if err != nil {
		return err
	}
	defer lock.release()
	t, err := loadTable(l, lock, now, log)
	if err != nil {
		return err
	}
	if !edit(t) {
		return nil
	}
	out, err := t.encode()
	if err != nil {
		return err
	}
	if err := writeAtomic(l.StorePath(), out); err != nil {
		return fmt.Errorf("writing store: %w", err)
	}
	lock.vouchFor(out)
	return nil
}

// loadTable reads the store. The fast path splits the hook's own output
// without decoding it; anything else (another writer's file, a hand edit)
// is decoded and validated in full.
func loadTable(l resolver.Layout, lock *storeLock, now time.Time, log *debugLog) (*table, error) {
	data, err := os.ReadFile(l.StorePath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading store: %w", err)
	}
	if len(data) == 0 {
		return newTable(), nil
	}
	if lock.vouches(data) {
		if t, ok := parseCanonical(data); ok {
			return t, nil
		}
	}
	s, err := resolver.DecodeStore(data)
	if err != nil {
		moved, qerr := quarantine(l, now)
		if qerr != nil {
			return nil, fmt.Errorf("%w; moving it aside: %w", err, qerr)
		}
		log.errorf("", "%v: moved aside to %s, starting a new store", err, moved)
		return newTable(), nil
	}
	return tableFromStore(s), nil
}

// storeLock is the held flock on sessions.json.lock. The lock file also
// carries the size and CRC-32C of the store as the hook last wrote it:
// when the store still matches, it is the hook's own canonical output and
// can be split without being decoded (see parseCanonical).
type storeLock struct{ f *os.File }

// lockStore opens (creating ~/.capacitor if needed, never the home
// itself) and locks the store's lock file, waiting at most timeout.
func lockStore(l resolver.Layout, timeout time.Duration) (*storeLock, error) {
	path := l.StoreLockPath()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.Mkdir(l.StoreDir(), 0o700); err == nil || errors.Is(err, fs.ErrExist) {
			f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("opening store lock: %w", err)
	}
	if err := flockTimeout(f, timeout); err != nil {
		return nil, err
	}
	return &storeLock{f}, nil
}

// flockTimeout takes an exclusive flock on f within timeout. flock(2) has
// no timeout, so a contended lock is waited for on another goroutine; if
// it is given up, that goroutine closes f once flock returns (closing
// releases a lock it may have got), so the descriptor is never reused
// under it. On failure f is (or will be) closed.
func flockTimeout(f *os.File, timeout time.Duration) error {
	fd := int(f.Fd())
	err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.EWOULDBLOCK) {
		f.Close()
		return fmt.Errorf("locking store: %w", err)
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
			return fmt.Errorf("locking store: %w", err)
		}
		return nil
	case <-timer.C:
		go func() {
			<-done
			f.Close()
		}()
		return errLockTimeout
	}
}

// release unlocks by closing.
func (s *storeLock) release() { s.f.Close() }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksumLine is the lock file's content for a store holding data; fixed
// width, so rewriting it in place never leaves a tail.
func checksumLine(data []byte) string {
	return fmt.Sprintf("sessions.json crc32c %08x size %012d\n", crc32.Checksum(data, castagnoli), len(data))
}

// vouches reports whether data is the store exactly as the hook last wrote it.
func (s *storeLock) vouches(data []byte) bool {
	want := checksumLine(data)
	got := make([]byte, len(want))
	n, _ := s.f.ReadAt(got, 0)
	return n == len(want) && string(got) == want
}

// vouchFor records that data is the store the hook just wrote. A failure
// only costs the next run the slow path.
func (s *storeLock) vouchFor(data []byte) {
	_, _ = s.f.WriteAt([]byte(checksumLine(data)), 0)
}

// writeAtomic replaces path with data so that a reader, or a crash, sees
// the old file or the new one, never a mix. The temp file's name is fixed:
// only the holder of the store lock writes it.
func writeAtomic(path string, data []byte) (err error) {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	// Make the rename itself durable; a failure here loses nothing now.
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// quarantine moves the store aside as sessions.json.corrupt-<unix time>
// and keeps only the newest keepCorrupt of those. It returns the new name.
func quarantine(l resolver.Layout, now time.Time) (string, error) {
	dir := l.StoreDir()
	stamp := now.Unix()
	name := filepath.Join(dir, corruptPrefix+strconv.FormatInt(stamp, 10))
	for {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			break
		}
		// Two corrupt stores within a second: the later one takes the
		// next second's name rather than overwrite the first.
		stamp++
		name = filepath.Join(dir, corruptPrefix+strconv.FormatInt(stamp, 10))
	}
	if err := os.Rename(l.StorePath(), name); err != nil {
		return "", err
	}
	pruneQuarantine(dir, keepCorrupt)
	return name, nil
}

// pruneQuarantine removes all but the newest keep quarantined stores.
func pruneQuarantine(dir string, keep int) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type quarantined struct {
		name  string
		stamp int64
	}
	var found []quarantined
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), corruptPrefix)
		if !ok {
			continue
		}
		if stamp, err := strconv.ParseInt(rest, 10, 64); err == nil {
			found = append(found, quarantined{e.Name(), stamp})
		}
	}
	slices.SortFunc(found, func(a, b quarantined) int { return int(b.stamp - a.stamp) })
	for _, q := range found[min(keep, len(found)):] {
		os.Remove(filepath.Join(dir, q.name))
	}
}
