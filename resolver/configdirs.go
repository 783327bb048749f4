package resolver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// Claude Code keeps a person's settings, transcripts and session files in
// one config directory, ~/.claude unless CLAUDE_CONFIG_DIR names another
// (`CLAUDE_CONFIG_DIR=~/.claude-work claude` is the usual way to keep two
// accounts apart). Each config directory has its own sessions/, so the
// locks and Claude's <pid>.json files of a session live in the config
// directory its Claude runs with. Readers follow all of them at once:
//
//   - ~/.claude, always;
//   - every directory `hud install` wired, remembered in
//     ~/.capacitor/config-dirs.json (ConfigDirList);
//   - every directory a record names (Record.ConfigDir): a Claude whose
//     hooks were wired some other way (a project's settings, --settings)
//     still says where its sessions are.

// ConfigDirList is ~/.capacitor/config-dirs.json, the config directories
// other than ~/.claude that `hud install` wired. Only install and uninstall
// write it.
type ConfigDirList struct {
	ConfigDirs []string `json:"config_dirs"`
}

// maxConfigDirList bounds what is read of config-dirs.json: a list of a few
// paths, whatever a stranger put there.
const maxConfigDirList = 64 << 10

// LoadConfigDirList reads l's config-dirs.json; a missing file is an empty
// list.
func LoadConfigDirList(l paths.Layout) (ConfigDirList, error) {
	var list ConfigDirList
	b, _, err := safefile.Read(l.ConfigDirsPath(), maxConfigDirList, safefile.Follow)
	if errors.Is(err, fs.ErrNotExist) {
		return list, nil
	}
	if err != nil {
		return list, fmt.Errorf("reading the wired config directories: %w", err)
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return ConfigDirList{}, fmt.Errorf("reading %s: %w", l.ConfigDirsPath(), err)
	}
	kept := list.ConfigDirs[:0]
	for _, d := range list.ConfigDirs {
		if filepath.IsAbs(d) {
			kept = append(kept, filepath.Clean(d))
		}
	}
	list.ConfigDirs = kept
	return list, nil
}

// Encode renders the list as the file holds it.
func (c ConfigDirList) Encode() ([]byte, error) {
	if c.ConfigDirs == nil {
		c.ConfigDirs = []string{}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the config directory list: %w", err)
	}
	return append(b, '\n'), nil
}

// OwnConfigDir checks that dir is a directory of this process's user that
// nobody else can swap (safefile.Owned). A config directory a record names
// comes from Claude's environment, which a project's settings can set: one
// another user owns would have the hook put its locks there and the
// readers take that user's lock directories and session files for the
// person's.
func OwnConfigDir(dir string) error {
	_, fi, err := safefile.Owned(dir, os.Getuid())
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// ConfigDirFromEnv turns the value of CLAUDE_CONFIG_DIR into the config
// directory a record names: "" when unset or when it is ~/.claude itself
// (the default needs no name), else the normalized path.
func ConfigDirFromEnv(l paths.Layout, value string) string {
	if value == "" {
		return ""
	}
	dir := paths.Normalize(value)
	if dir == paths.Normalize(l.DefaultConfigDir()) {
		return ""
	}
	return dir
}

// FollowedConfigDirs lists the config directories whose sessions readers
// follow, ~/.claude (or l's own) first, each once: l's, the default, the
// wired ones (list) and those the store's records name. Every one but the
// default must be the person's (OwnConfigDir): CLAUDE_CONFIG_DIR, a wired
// directory or a record may name a directory another user owns or can
// write to, whose lock directories and session files would then pass for
// the person's. A wired directory that does not exist yet is kept, with
// nothing in it to read; a record's must exist.
func FollowedConfigDirs(l paths.Layout, list ConfigDirList, st *store.Store) []string {
	def := l.DefaultConfigDir()
	dirs := []string{l.ConfigDir(), def}
	dirs = append(dirs, list.ConfigDirs...)
	dirs = slices.DeleteFunc(dirs, func(d string) bool {
		err := OwnConfigDir(d)
		return d != def && err != nil && !errors.Is(err, fs.ErrNotExist)
	})
	if st != nil {
		var named []string
		for _, rec := range st.Sessions {
			if rec != nil && rec.ConfigDir != "" && filepath.IsAbs(rec.ConfigDir) {
				named = append(named, filepath.Clean(rec.ConfigDir))
			}
		}
		named = slices.DeleteFunc(named, func(d string) bool { return !slices.Contains(dirs, d) && OwnConfigDir(d) != nil })
		slices.Sort(named)
		dirs = append(dirs, named...)
	}
	out := dirs[:0]
	seen := map[string]bool{}
	for _, d := range dirs {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}
