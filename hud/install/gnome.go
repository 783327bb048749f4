package install

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/xdg"
)

// GNOMEResult says what InstallGNOME or UninstallGNOME did (or, for a dry
// run, would do).
type GNOMEResult struct {
	// Dir is the extension's directory; "" when the desktop is not GNOME
	// and nothing was done.
	Dir string
	// Shell is the GNOME Shell major version the format was chosen for,
	// 0 when `gnome-shell --version` did not say.
	Shell int
	// Legacy is set when the format written is GNOME Shell 43's and 44's.
	Legacy bool
	// Changed is false when the files already were as wanted (install)
	// or absent (uninstall).
	Changed bool
}

// EnableHint says how the person turns the extension on.
const EnableHint = "enable it with 'gnome-extensions enable " + assets.GNOMEExtensionUUID +
	"', then log out and in again (GNOME on Wayland loads a new extension only at login)"

// OnGNOME reports whether env's desktop is GNOME: XDG_CURRENT_DESKTOP, a
// colon-separated list ("ubuntu:GNOME"), names it.
func OnGNOME(env Env) bool {
	return xdg.DesktopIs(env.getenv("XDG_CURRENT_DESKTOP"), "GNOME")
}

// GNOMEExtensionDir is where GNOME Shell looks for the extension:
// $XDG_DATA_HOME/gnome-shell/extensions/<uuid>, ~/.local/share by default.
func GNOMEExtensionDir(env Env) string {
	return filepath.Join(env.Dir("XDG_DATA_HOME", ".local", "share"), "gnome-shell", "extensions", assets.GNOMEExtensionUUID)
}

// shellTimeout bounds `gnome-shell --version`, which answers at once but
// loads the whole shell's libraries first; install must not hang on it.
const shellTimeout = 5 * time.Second

// GNOMEShellVersion asks the gnome-shell found on searchPath (a $PATH
// value) for its major version ("GNOME Shell 43.9" is 43).
func GNOMEShellVersion(ctx context.Context, searchPath string) (int, error) {
	path := findExecutable("gnome-shell", searchPath)
	if path == "" {
		return 0, errors.New("no gnome-shell on $PATH")
	}
	ctx, cancel := context.WithTimeout(ctx, shellTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	// A child left holding the output must not hold install either.
	cmd.WaitDelay = 500 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("%s --version: %w", path, err)
	}
	major, ok := parseShellVersion(string(out))
	if !ok {
		return 0, fmt.Errorf("%s --version said %q", path, strings.TrimSpace(string(out)))
	}
	return major, nil
}

// parseShellVersion reads the major version off "GNOME Shell 43.9" (or
// "GNOME Shell 47.rc").
func parseShellVersion(out string) (int, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(out), "GNOME Shell ")
	if !ok {
		return 0, false
	}
	major, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(major)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// legacyShell reports whether GNOME Shell major reads the extension format
// before ES modules; an unknown version (0) gets the current one.
func legacyShell(major int) bool { return major > 0 && major < 45 }

// InstallGNOME puts hud's GNOME Shell extension (assets/gnome-shell) in
// place when env's desktop is GNOME, in the format of the GNOME Shell on
// env's $PATH; elsewhere it does nothing (an empty Dir). On GNOME hud
// brings a terminal forward and tells which window has the focus through
// that extension alone: Wayland lets no other program do either, and
// GNOME Shell keeps its window list from outside programs. Enabling it is
// left to the person (EnableHint), as GNOME asks of every extension.
func InstallGNOME(ctx context.Context, env Env, dryRun bool) (GNOMEResult, error) {
	if !OnGNOME(env) {
		return GNOMEResult{}, nil
	}
	major, _ := GNOMEShellVersion(ctx, env.getenv("PATH"))
	return InstallGNOMEExtension(env, major, dryRun)
}

// InstallGNOMEExtension writes the extension's files, in the format for
// GNOME Shell major (0 for unknown), into GNOMEExtensionDir: 0644 files
// in a 0755 directory, each replaced atomically, and only the files that
// differ. The directory must be a real one: a link there is refused,
// never written through, and so is a file's link replaced rather than
// followed.
func InstallGNOMEExtension(env Env, major int, dryRun bool) (GNOMEResult, error) {
	res := GNOMEResult{Dir: GNOMEExtensionDir(env), Shell: major, Legacy: legacyShell(major)}
	changed, err := writeExtension(res.Dir, assets.GNOMEShellExtension(res.Legacy), dryRun)
	res.Changed = changed
	if err != nil {
		return res, fmt.Errorf("installing hud's GNOME Shell extension: %w", err)
	}
	return res, nil
}

// writeExtension writes files into dir where they differ, and reports
// whether any did.
func writeExtension(dir string, files fs.FS, dryRun bool) (bool, error) {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return false, fmt.Errorf("reading the embedded files: %w", err)
	}
	if err := checkRealDir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	var stale []string
	for _, e := range entries {
		want, _ := fs.ReadFile(files, e.Name())
		have, fi, err := safefile.Read(filepath.Join(dir, e.Name()), safefile.MaxRead, safefile.NoFollow)
		if err != nil || !bytes.Equal(have, want) || fi.Mode().Perm() != 0o644 {
			stale = append(stale, e.Name())
		}
	}
	if len(stale) == 0 || dryRun {
		return len(stale) > 0, nil
	}
	if err := makeExtensionDir(dir); err != nil {
		return true, err
	}
	for _, name := range stale {
		data, _ := fs.ReadFile(files, name)
		if err := safefile.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return true, &Error{Err: err, Hint: "the directory " + dir + " must be writable"}
		}
	}
	return true, nil
}

// UninstallGNOME removes the extension's files (those hud ships, never
// others a person put there) and then its directory, when nothing else is
// left in it. A link at the directory is refused, not followed.
func UninstallGNOME(env Env, dryRun bool) (GNOMEResult, error) {
	res := GNOMEResult{Dir: GNOMEExtensionDir(env)}
	if err := checkRealDir(res.Dir); errors.Is(err, fs.ErrNotExist) {
		return res, nil
	} else if err != nil {
		return res, fmt.Errorf("removing hud's GNOME Shell extension: %w", err)
	}
	var ours []string
	for _, legacy := range []bool{true, false} {
		entries, _ := fs.ReadDir(assets.GNOMEShellExtension(legacy), ".")
		for _, e := range entries {
			p := filepath.Join(res.Dir, e.Name())
			if _, err := os.Lstat(p); err == nil && !slices.Contains(ours, p) {
				ours = append(ours, p)
			}
		}
	}
	res.Changed = len(ours) > 0
	if dryRun {
		return res, nil
	}
	for _, p := range ours {
		if err := os.Remove(p); err != nil {
			return res, fmt.Errorf("removing hud's GNOME Shell extension: %w", err)
		}
	}
	// Only an empty directory goes: what else is in it is the person's.
	if err := os.Remove(res.Dir); err == nil {
		res.Changed = true
	}
	return res, nil
}

// checkRealDir checks that dir is a directory itself, not a link to one
// (fs.ErrNotExist when there is nothing there).
func checkRealDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &Error{Err: fmt.Errorf("%s: %w (%v)", dir, safefile.ErrNotDir, fi.Mode().Type()), Hint: notDirHint}
	}
	return nil
}

// notDirHint is the hint for a link or a file where the extension's
// directory goes.
const notDirHint = "hud installs its GNOME Shell extension only into a directory of its own; move what is there out of the way"

// makeExtensionDir creates the extension's directory 0755 (past the
// umask: what it holds is hud's published code, and extension tools
// expect to read it), its parents as needed, and checks that it is a real
// directory.
func makeExtensionDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	_, statErr := os.Lstat(dir)
	if err := safefile.RealDir(dir, 0o755); err != nil {
		return &Error{Err: err, Hint: notDirHint}
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if err := os.Chmod(dir, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// Report is the line `hud install` (installing) or `hud uninstall` prints
// about the extension; "" when there is nothing to say.
func (r GNOMEResult) Report(installing, dryRun bool) string {
	format := "GNOME Shell 45 and later"
	if r.Legacy {
		format = "GNOME Shell 43 and 44"
	}
	switch {
	case r.Dir == "" || (!installing && !r.Changed):
		return ""
	case !installing && dryRun:
		return "Would remove hud's GNOME Shell extension from " + r.Dir
	case !installing:
		return "Removed hud's GNOME Shell extension from " + r.Dir + "; GNOME Shell lets go of it at the next login"
	case !r.Changed:
		return "hud's GNOME Shell extension is already in " + r.Dir + "; if it is not enabled, " + EnableHint
	case dryRun:
		return "Would install hud's GNOME Shell extension (for " + format + ") in " + r.Dir
	}
	return "Installed hud's GNOME Shell extension (for " + format + ") in " + r.Dir + "; " + EnableHint
}
