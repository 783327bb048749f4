package autostart

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// Target is the autostart file of one OS.
type Target struct {
	// Kind names the mechanism for messages ("LaunchAgent").
	Kind string
	// Path is the file that turns autostart on by existing.
	Path string
	// Render returns the file's contents for an executable.
	Render func(exe string) []byte
}

// Status is whether autostart is on, and for which executable.
type Status struct {
	Enabled bool
	// Current is true when the file is exactly what Enable would write
	// for the executable asked about; false when it starts another hud
	// (an older build, a moved binary) or was edited.
	Current bool
}

// Enable writes the autostart file for exe. It reports whether anything
// changed.
func (t Target) Enable(exe string) (changed bool, err error) {
	if !filepath.IsAbs(exe) {
		return false, fmt.Errorf("autostart: executable %q is not absolute", exe)
	}
	want := t.Render(exe)
	if old, err := os.ReadFile(t.Path); err == nil && bytes.Equal(old, want) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o755); err != nil {
		return false, fmt.Errorf("autostart: %w", err)
	}
	// 0644: launchd refuses agents that others can write.
	if err := safefile.WriteFile(t.Path, want, 0o644); err != nil {
		return false, fmt.Errorf("autostart: writing %s: %w", t.Path, err)
	}
	return true, nil
}

// Disable removes the autostart file. It reports whether there was one.
func (t Target) Disable() (changed bool, err error) {
	err = os.Remove(t.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("autostart: %w", err)
	}
	return true, nil
}

// Status reports whether autostart is on and starts exe.
func (t Target) Status(exe string) (Status, error) {
	b, err := os.ReadFile(t.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return Status{}, nil
	}
	if err != nil {
		return Status{}, fmt.Errorf("autostart: %w", err)
	}
	return Status{Enabled: true, Current: bytes.Equal(b, t.Render(exe))}, nil
}
