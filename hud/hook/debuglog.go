package hook

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// maxDebugLog is the size at which the debug log is rotated; one old file
// (<name>.1) is kept, so it never takes more than twice this.
const maxDebugLog = 1 << 20

// debugLog collects the lines of one hook run and appends them to
// ~/.claude/hud-hook-debug.log in one write when the run ends: one
// O_APPEND write is atomic enough that concurrent hooks never interleave
// within a line, and it is the cheapest thing the hook can do on every
// tool call. `tail -F` on the file (it follows the name across a
// rotation) is how a person debugs.
type debugLog struct {
	path   string // "" when there is no home to log into
	now    func() time.Time
	stderr io.Writer
	buf    []byte
}

func newDebugLog(l paths.Layout, env Env) *debugLog {
	d := &debugLog{now: env.Now, stderr: env.Stderr}
	if l.Home != "" {
		d.path = l.DebugLogPath()
	}
	return d
}

// eventf logs the one line that sums up an event.
func (d *debugLog) eventf(session, format string, args ...any) {
	d.line(session, fmt.Sprintf(format, args...))
}

// errorf logs a failure.
func (d *debugLog) errorf(session, format string, args ...any) {
	d.line(session, "error: "+fmt.Sprintf(format, args...))
}

// storeErrorf logs a failure of the store's, which belongs to no one
// session (store.Update's logf).
func (d *debugLog) storeErrorf(format string, args ...any) { d.errorf("", format, args...) }

// line appends "<time> <session> <message>"; a multi-line message (a
// panic's stack) is indented below it so each entry still starts a line.
func (d *debugLog) line(session, msg string) {
	if session == "" {
		session = "-"
	}
	d.buf = d.now().UTC().AppendFormat(d.buf, store.TimestampLayout)
	d.buf = append(d.buf, ' ')
	d.buf = append(d.buf, session...)
	d.buf = append(d.buf, ' ')
	d.buf = append(d.buf, strings.ReplaceAll(strings.TrimRight(msg, "\n"), "\n", "\n\t")...)
	d.buf = append(d.buf, '\n')
}

// flush writes the collected lines, rotating the file first when it has
// grown past maxDebugLog. When the log cannot be written (no home, a
// read-only or full disk) the lines go to stderr, which Claude Code shows
// nowhere for a hook that exits 0 but a person running the hook by hand
// sees.
func (d *debugLog) flush() {
	if len(d.buf) == 0 {
		return
	}
	defer func() { d.buf = d.buf[:0] }()
	if d.path == "" {
		d.stderr.Write(d.buf)
		return
	}
	if err := d.append(); err != nil {
		fmt.Fprintf(d.stderr, "hud-hook: writing debug log: %v\n", err)
		d.stderr.Write(d.buf)
	}
}

func (d *debugLog) append() error {
	f, info, err := openLog(d.path)
	if err == nil && info.Size()+int64(len(d.buf)) > maxDebugLog {
		// Rotate: the old file becomes <name>.1 and this run starts a new
		// one. Only while the open file is still the one at the path: when
		// another hook rotated first, renaming again would move its fresh
		// file over the old one.
		if cur, err := os.Lstat(d.path); err == nil && os.SameFile(info, cur) {
			os.Rename(d.path, d.path+".1")
		}
		f.Close()
		f, _, err = openLog(d.path)
	}
	if errors.Is(err, errNotLog) {
		// Something else at the log's name (a link planted to make the
		// hook append to ~/.bashrc, a FIFO): moved aside the way a
		// rotation moves the log, never written through, and a new log
		// started.
		if err = os.Rename(d.path, d.path+".1"); err == nil {
			f, _, err = openLog(d.path)
		}
	}
	if err != nil {
		return err
	}
	_, err = f.Write(d.buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// errNotLog is openLog's error for a name that is not a regular file.
var errNotLog = errors.New("not a regular file")

// openLog opens the log for appending, never through a link and never
// blocking (a FIFO at its name), and returns its info. ~/.claude may not
// exist yet (the hook run by hand before Claude ever ran) and is then
// created, but never the home directory itself.
func openLog(path string) (*os.File, fs.FileInfo, error) {
	const flags = os.O_WRONLY | os.O_APPEND | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.Mkdir(filepath.Dir(path), 0o700); err == nil || errors.Is(err, fs.ErrExist) {
			f, err = os.OpenFile(path, flags, 0o600)
		}
	}
	switch {
	case errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.EISDIR):
		return nil, nil, fmt.Errorf("%s: %w", path, errNotLog)
	case err != nil:
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w", path, errNotLog)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}
