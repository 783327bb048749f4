package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/config/settings"
)

// DefaultPath is $XDG_CONFIG_HOME/hud/config.toml, or
// <home>/.config/hud/config.toml (see settings.DefaultPath).
func DefaultPath(home string, getenv func(string) string) string {
	return settings.DefaultPath(home, getenv)
}

// EnsureFile creates the settings file at path from [Template] when it does
// not exist, and reports whether it did. An existing file is never touched.
// The file appears whole or not at all: it is written under a temporary
// name and linked into place, which also fails rather than overwrite a file
// another process created meanwhile.
func EnsureFile(path string) (created bool, err error) {
	if _, err := os.Lstat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("checking the settings file: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("creating the settings directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".config.toml.new-*")
	if err != nil {
		return false, fmt.Errorf("creating the settings file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(Template()); err != nil {
		tmp.Close()
		return false, fmt.Errorf("writing the settings file: %w", err)
	}
	// Private: notifications.push_url may hold a token.
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return false, fmt.Errorf("writing the settings file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("writing the settings file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("writing the settings file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil // another process created it first
		}
		// A filesystem without hard links: create it exclusively instead.
		return writeExclusive(path)
	}
	return true, nil
}

// writeExclusive creates path with the template, failing rather than
// overwriting; a file created meanwhile by another process wins.
func writeExclusive(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("creating the settings file: %w", err)
	}
	if _, err := f.WriteString(Template()); err != nil {
		f.Close()
		return false, fmt.Errorf("writing the settings file: %w", err)
	}
	if err := f.Close(); err != nil {
		return false, fmt.Errorf("writing the settings file: %w", err)
	}
	return true, nil
}
