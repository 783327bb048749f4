package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/diff"
	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/hookevents"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// Options say which settings file to edit and how.
type Options struct {
	// SettingsPath is the settings.json to edit. A symlink is followed and
	// its target edited, so dotfile managers keep their link.
	SettingsPath string
	// HookPath is the absolute path of hud-hook (Install only).
	HookPath string
	// Timeout is the handler timeout in seconds; 0 means DefaultTimeout.
	Timeout int
	// StatusLineHud, when set, is the absolute path of hud: Install then
	// also points Claude Code's statusLine at `hud statusline`, unless the
	// file has a status line of its own.
	StatusLineHud string
	// Client is the version of the Claude Code that will read the file
	// (DetectClient); the zero Version, unknown, stands for the oldest
	// supported. Install wires only events it accepts: an older client
	// stops at a "Settings Warning" dialog at every start for a name it
	// does not know.
	Client hookevents.Version
	// StatusLineRefresh is the refreshInterval (seconds) of the status
	// line install writes; 0 leaves it out (a client older than
	// RefreshIntervalSince).
	StatusLineRefresh int
	// DryRun computes the change and its diff but writes nothing.
	DryRun bool
	// Now names the backup file; nil means time.Now.
	Now func() time.Time
}

// Result describes what Install or Uninstall did (or, for a dry run,
// would do).
type Result struct {
	// Path is the file edited, symlinks resolved.
	Path string
	// Changed is false when the file already was as wanted.
	Changed bool
	// Created is true when the file did not exist before.
	Created bool
	// Removed is true when uninstall left nothing but an empty object and
	// removed the file.
	Removed bool
	// Backup is the copy of the previous contents, if one was written.
	Backup string
	// Diff is a unified diff from the old contents to the new, headed
	// with the file's path, or /dev/null for the side where the file does
	// not exist (a created or removed file). It is empty when nothing
	// changes.
	Diff string
	// Events are the events Install wires hud-hook to.
	Events []string
	// StatusLineKept is set when Install was asked for the status line
	// but the file has another one, which it left alone.
	StatusLineKept bool
}

// Error is a failure with a suggestion a person can act on.
type Error struct {
	Err  error
	Hint string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// HintOf returns the suggestion carried by err, or "".
func HintOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Hint
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		return se.Hint
	}
	return ""
}

// Install adds hud-hook to every event that carries state and that the
// client accepts (hookevents.Wired).
func Install(opts Options) (Result, error) {
	if !filepath.IsAbs(opts.HookPath) {
		return Result{}, fmt.Errorf("hook path %q is not absolute", opts.HookPath)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	command := ShellQuote(opts.HookPath)
	if opts.StatusLineHud != "" && !filepath.IsAbs(opts.StatusLineHud) {
		return Result{}, fmt.Errorf("hud path %q is not absolute", opts.StatusLineHud)
	}
	kept := false
	events := hookevents.Wired(opts.Client)
	res, err := edit(opts, func(root *node) (bool, error) {
		changed, err := addHooks(root, events, command, timeout)
		if err != nil || opts.StatusLineHud == "" {
			return changed, err
		}
		set, k := setStatusLine(root, ShellQuote(opts.StatusLineHud)+" "+StatusLineArg, opts.StatusLineRefresh)
		kept = k
		return changed || set, nil
	}, false)
	res.StatusLineKept = kept
	res.Events = hookevents.Names(events)
	return res, err
}

// Uninstall removes every hud-hook handler from the file, and the groups,
// event arrays and "hooks" object that held nothing else, and a statusLine
// that runs `hud statusline`. A file without them (or no file at all) is
// left alone.
//
// When nothing is left but an empty object, the file is removed (after the
// backup): Claude Code reads a missing settings file and `{}` alike, and a
// file that `hud install` created is then gone again, as it was.
func Uninstall(opts Options) (Result, error) {
	return edit(opts, func(root *node) (bool, error) {
		hooks := removeHooks(root)
		return removeStatusLine(root) || hooks, nil
	}, true)
}

// maxAttempts bounds the retries of an edit whose file changed while it
// was being edited.
const maxAttempts = 3

// errChangedMeanwhile means the file changed between reading and writing.
var errChangedMeanwhile = errors.New("changed while being edited")

// edit reads the settings file, applies change to its tree and, if the
// bytes differ, backs the file up and replaces it atomically. Claude Code
// writes its settings too (an "always allow" answer, /config), so just
// before replacing the file it is read again: if it changed meanwhile the
// edit starts over from the new content instead of undoing that write.
//
// removeIfEmpty deletes the file instead of writing an empty object.
func edit(opts Options, change func(*node) (bool, error), removeIfEmpty bool) (Result, error) {
	return editFile(opts, func(path string, old []byte) ([]byte, bool, error) {
		doc, err := parseSettings(path, old)
		if err != nil {
			return nil, false, err
		}
		changed, err := change(doc.root)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", path, err)
		}
		if !changed {
			return old, false, nil
		}
		empty := doc.root.kind == kindObject && len(doc.root.members) == 0
		return doc.bytes(), empty, nil
	}, removeIfEmpty)
}

// editFile is edit for any file: change returns the new contents of the
// file (old itself for no change) and whether they are empty of anything
// but what install had added.
func editFile(opts Options, change func(path string, old []byte) (updated []byte, empty bool, err error), removeIfEmpty bool) (Result, error) {
	for attempt := 1; ; attempt++ {
		res, err := editOnce(opts, change, removeIfEmpty)
		if !errors.Is(err, errChangedMeanwhile) || attempt == maxAttempts {
			return res, err
		}
	}
}

// fileDiff is the unified diff from old to updated, the contents of path
// before and after. Both sides are named by path so patch can apply it;
// /dev/null stands for the side where the file is absent, as git prints a
// created or deleted file.
func fileDiff(path string, old, updated []byte, created, removed bool) string {
	oldName, newName := path, path
	if created {
		oldName = "/dev/null"
	}
	if removed {
		newName = "/dev/null"
	}
	return string(diff.Diff(oldName, old, newName, updated))
}

func editOnce(opts Options, change func(string, []byte) ([]byte, bool, error), removeIfEmpty bool) (Result, error) {
	path, err := resolve(opts.SettingsPath)
	if err != nil {
		return Result{}, err
	}
	res := Result{Path: path}
	old, mode, err := read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		res.Created, mode = true, 0o600
	case err != nil:
		return res, err
	}
	updated, empty, err := change(path, old)
	if err != nil {
		return res, err
	}
	if bytes.Equal(updated, old) {
		return res, nil
	}
	remove := removeIfEmpty && !res.Created && empty
	if remove {
		updated = nil
		res.Removed = true
	}
	res.Changed = true
	res.Diff = fileDiff(path, old, updated, res.Created, remove)
	if opts.DryRun {
		return res, nil
	}
	if current, _, err := read(path); !bytes.Equal(current, old) || (res.Created && !errors.Is(err, fs.ErrNotExist)) {
		return res, fmt.Errorf("%s: %w", path, errChangedMeanwhile)
	}
	if !res.Created {
		if err := checkWritable(path, mode); err != nil {
			return res, err
		}
		if len(bytes.TrimSpace(old)) > 0 {
			now := time.Now
			if opts.Now != nil {
				now = opts.Now
			}
			if res.Backup, err = backup(path, old, mode, now()); err != nil {
				return res, err
			}
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return res, fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	if remove {
		if err := os.Remove(path); err != nil {
			return res, fmt.Errorf("removing %s: %w", path, err)
		}
		return res, nil
	}
	if err := writeAtomic(path, updated, mode); err != nil {
		return res, err
	}
	return res, nil
}

// parseSettings parses a settings file; an empty file is an empty object.
func parseSettings(path string, data []byte) (*document, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &document{root: newObject(), trail: []byte("\n"), style: defaultStyle}, nil
	}
	doc, err := parseDocument(data)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			se.Path = path
		}
		return nil, err
	}
	return doc, nil
}

// resolve follows a symlinked settings file to the file it names.
func resolve(path string) (string, error) {
	if path == "" {
		return "", errors.New("no settings file given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("settings path %q: %w", path, err)
	}
	fi, err := os.Lstat(abs)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return abs, nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", &Error{Err: fmt.Errorf("%s is a symlink to a missing file: %w", abs, err),
			Hint: "create the file it points to, or remove the link"}
	}
	return real, nil
}

// read reads a settings file through safefile.Read: links followed (the
// person's dotfiles), but only a regular file, at most safefile.MaxRead,
// and an open that cannot hang on a FIFO.
func read(path string) ([]byte, fs.FileMode, error) {
	data, fi, err := safefile.Read(path, safefile.MaxRead, safefile.Follow)
	switch {
	case err == nil:
		return data, fi.Mode().Perm(), nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0, err
	case errors.Is(err, safefile.ErrNotRegular):
		return nil, 0, &Error{Err: fmt.Errorf("%s: %s, not a regular file", path, fileKind(fi.Mode())),
			Hint: "Claude Code reads settings from a plain file; replace it with one"}
	case errors.Is(err, safefile.ErrTooLarge):
		return nil, 0, &Error{Err: fmt.Errorf("%s: over %d KiB, too big for a settings file", path, safefile.MaxRead>>10),
			Hint: "check what wrote it; a settings file is a few KiB"}
	}
	return nil, 0, &Error{Err: fmt.Errorf("reading settings: %w", err),
		Hint: "check the file's permissions (ls -l " + path + ")"}
}

// fileKind names what a file that is not a regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// checkWritable refuses a file its owner made read-only. Replacing it by
// rename would succeed (the directory is writable), which would silently
// override the person's decision; root would not even be stopped by
// access(2), so the mode bits are checked as well.
func checkWritable(path string, mode fs.FileMode) error {
	if mode&0o200 == 0 || unix.Access(path, unix.W_OK) != nil {
		return &Error{Err: fmt.Errorf("%s is read-only", path),
			Hint: "make it writable (chmod u+w '" + path + "'), or add the hooks yourself: 'hud install --dry-run' prints them"}
	}
	return nil
}

// backup writes the old contents next to the file as <name>.bak-<unix>,
// never overwriting an earlier backup.
func backup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := path + ".bak-" + strconv.FormatInt(now.Unix(), 10)
	name := base
	for i := 1; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			name = base + "." + strconv.Itoa(i)
			continue
		}
		if err != nil {
			return "", &Error{Err: fmt.Errorf("writing backup: %w", err),
				Hint: "the directory " + filepath.Dir(path) + " must be writable"}
		}
		_, werr := f.Write(data)
		if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
			os.Remove(name)
			return "", fmt.Errorf("writing backup %s: %w", name, err)
		}
		return name, nil
	}
}

// writeAtomic replaces path with data durably (safefile.WriteFile), so a
// reader (Claude Code starting up) sees the old file or the new one, never
// half of one.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if err := safefile.WriteFile(path, data, mode); err != nil {
		return &Error{Err: fmt.Errorf("writing settings: %w", err),
			Hint: "the directory " + filepath.Dir(path) + " must be writable"}
	}
	return nil
}
