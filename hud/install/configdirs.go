package install

import (
	"fmt"
	"os"
	"slices"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/resolver"
)

// RememberConfigDir adds the Claude config directory dir (normalized) to
// ~/.capacitor/config-dirs.json, so the tray and every command follow the
// sessions of the Claude that runs with it. ~/.claude is followed anyway
// and never listed. It reports whether the list changed.
func RememberConfigDir(l paths.Layout, dir string) (bool, error) {
	return editConfigDirs(l, func(dirs []string) []string {
		if dir == "" || dir == l.DefaultConfigDir() || slices.Contains(dirs, dir) {
			return dirs
		}
		return append(dirs, dir)
	})
}

// ForgetConfigDir takes dir out of config-dirs.json (uninstall); it
// reports whether the list changed.
func ForgetConfigDir(l paths.Layout, dir string) (bool, error) {
	return editConfigDirs(l, func(dirs []string) []string {
		return slices.DeleteFunc(dirs, func(d string) bool { return d == dir })
	})
}

// editConfigDirs rewrites the list through change. A list that cannot be
// read is an error rather than an empty list: writing over it would lose
// every directory it names.
func editConfigDirs(l paths.Layout, change func([]string) []string) (bool, error) {
	list, err := resolver.LoadConfigDirList(l)
	if err != nil {
		return false, &Error{Err: err, Hint: "fix or remove " + l.ConfigDirsPath() + ", then run the command again"}
	}
	before := slices.Clone(list.ConfigDirs)
	list.ConfigDirs = change(list.ConfigDirs)
	if slices.Equal(before, list.ConfigDirs) {
		return false, nil
	}
	b, err := list.Encode()
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(l.StoreDir(), 0o700); err != nil {
		return false, fmt.Errorf("remembering the config directory: %w", err)
	}
	if err := safefile.WriteFile(l.ConfigDirsPath(), b, 0o600); err != nil {
		return false, fmt.Errorf("remembering the config directory: %w", err)
	}
	return true, nil
}
