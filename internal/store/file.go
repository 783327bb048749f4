package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

const (
	// lockTimeout is how long Update waits for the store lock before it
	// gives the edit up: a hook that hangs holds up the person's Claude.
	lockTimeout = 2 * time.Second
	// keepCorrupt is how many quarantined stores are kept.
	keepCorrupt = 3
	// corruptPrefix starts the name of a quarantined store, followed by
	// the Unix time it was moved aside.
	corruptPrefix = "sessions.json.corrupt-"
)

var errLockTimeout = errors.New("store lock busy for " + lockTimeout.String() + ": event not recorded")

// Update runs edit on the store under its exclusive lock and, when
// edit reports a change, writes the result: a temp file in the same
// directory, renamed over the store. Never fsynced: every record
// describes a process on this machine, which a crash or a power cut ends
// too, so after one the store's content is obsolete whatever the disk
// kept; what matters is that no reader ever sees half a file, which the
// rename gives (docs/state-files.md, "Durability"). A store that is not a
// v3 store at all is moved aside first (never thrown away); bad records
// within one are dropped and logged.
func Update(l paths.Layout, now time.Time, logf func(string, ...any), edit func(*Table) bool) error {
	lock, err := lockStore(l, lockTimeout, logf)
	if err != nil {
		return err
	}
	defer lock.release()
	t, err := loadTable(l, lock, now, logf)
	if err != nil {
		return err
	}
	if !edit(t) {
		return nil
	}
	out, err := t.encode()
	if err != nil {
		return fmt.Errorf("writing store: %w", err)
	}
	info, err := writeAtomic(l.StorePath(), out)
	if err != nil {
		return fmt.Errorf("writing store: %w", err)
	}
	lock.vouchFor(info)
	return nil
}

// loadTable reads the store. The fast path splits Update's own output
// without decoding it; anything else (another writer's file, a hand edit)
// is decoded and validated in full.
func loadTable(l paths.Layout, lock *storeLock, now time.Time, logf func(string, ...any)) (*Table, error) {
	data, info, notStore, err := ReadFile(l.StorePath())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return NewTable(), nil
	case notStore:
		// A link, a FIFO, a directory or a huge file: not the hook's. It
		// is moved aside, never read or followed.
		return quarantined(l, now, logf, err)
	case err != nil:
		return nil, fmt.Errorf("reading store: %w", err)
	case len(data) == 0:
		return NewTable(), nil
	}
	// A file that changed size while read was being written by something
	// that ignores the lock: never vouched for.
	if int64(len(data)) == info.Size() && lock.vouches(info) {
		if t, ok := parseCanonical(data); ok {
			return t, nil
		}
	}
	s, problems, err := Decode(data)
	if err != nil {
		return quarantined(l, now, logf, err)
	}
	for _, p := range problems {
		logf("store: %v", p)
	}
	return tableFromStore(s), nil
}

// quarantined moves the store aside because of why and starts a new one.
func quarantined(l paths.Layout, now time.Time, logf func(string, ...any), why error) (*Table, error) {
	moved, err := quarantine(l, now)
	if err != nil {
		return nil, fmt.Errorf("%w; moving it aside: %w", why, err)
	}
	logf("%v: moved aside to %s, starting a new store", why, moved)
	return NewTable(), nil
}

// storeLock is the held flock on sessions.json.lock. The lock file also
// names the store file the hook last wrote (inode, size, modification
// time): while the store is still that file, it is the hook's own
// canonical output and can be split without being decoded (see
// parseCanonical). Another writer's rename brings a new inode, an edit in
// place a new modification time; either sends the next run down the slow,
// validating path.
type storeLock struct{ f *os.File }

// lockStore opens (creating ~/.capacitor if needed, never the home
// itself) and locks the store's lock file, waiting at most timeout. The
// lock file is never opened through a link: one planted at its name is
// removed (the link, not its target: the name is the hook's own) and the
// file made anew.
func lockStore(l paths.Layout, timeout time.Duration, logf func(string, ...any)) (*storeLock, error) {
	path := l.StoreLockPath()
	const flags = os.O_RDWR | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.Mkdir(l.StoreDir(), 0o700); err == nil || errors.Is(err, fs.ErrExist) {
			f, err = os.OpenFile(path, flags, 0o600)
		}
	}
	if errors.Is(err, syscall.ELOOP) {
		logf("%s is a symbolic link: removed it, not followed", path)
		if err = os.Remove(path); err == nil || errors.Is(err, fs.ErrNotExist) {
			f, err = os.OpenFile(path, flags, 0o600)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("opening store lock: %w", err)
	}
	if err := safefile.LockFile(f, timeout); errors.Is(err, safefile.ErrLockTimeout) {
		return nil, errLockTimeout
	} else if err != nil {
		return nil, fmt.Errorf("locking store: %w", err)
	}
	return &storeLock{f}, nil
}

// release unlocks by closing.
func (s *storeLock) release() { s.f.Close() }

// fileID is the lock file's content for the store file info; fixed
// width, so rewriting it in place never leaves a tail.
func fileID(info fs.FileInfo) string {
	var ino uint64
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		ino = uint64(st.Ino)
	}
	return fmt.Sprintf("sessions.json ino %020d size %012d mtime %020d\n", ino, info.Size(), info.ModTime().UnixNano())
}

// vouches reports whether info is the store file as the hook last wrote it.
func (s *storeLock) vouches(info fs.FileInfo) bool {
	if info == nil {
		return false
	}
	want := fileID(info)
	got := make([]byte, len(want))
	n, _ := s.f.ReadAt(got, 0)
	return n == len(want) && string(got) == want
}

// vouchFor records that info is the store file the hook just wrote. A
// failure only costs the next run the slow path.
func (s *storeLock) vouchFor(info fs.FileInfo) {
	_, _ = s.f.WriteAt([]byte(fileID(info)), 0)
}

// writeAtomic replaces path with data so that a reader sees the old file
// or the new one, never a mix, and returns the info of the file written
// (to vouch for it, see storeLock). It is not safefile.Replace because the
// hook needs what that hides: the info of the new file. The temp file's
// name is fixed (only the holder of the store lock writes it) and it is
// created with O_EXCL|O_NOFOLLOW, so a link planted there is never written
// through; a leftover of a run killed midway, or such a link, is removed
// and the create tried once more.
func writeAtomic(path string, data []byte) (info fs.FileInfo, err error) {
	tmp := path + ".tmp"
	const flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL | syscall.O_NOFOLLOW
	f, err := os.OpenFile(tmp, flags, 0o600)
	if errors.Is(err, fs.ErrExist) {
		if err = os.Remove(tmp); err == nil {
			f, err = os.OpenFile(tmp, flags, 0o600)
		}
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		info, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if err := safefile.SwapIn(tmp, path); err != nil {
		return nil, err
	}
	return info, nil
}

// quarantine moves the store aside as sessions.json.corrupt-<unix time>
// and keeps only the newest keepCorrupt of those. It returns the new name.
func quarantine(l paths.Layout, now time.Time) (string, error) {
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
