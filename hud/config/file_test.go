package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		xdg, want string
	}{
		{"", "/home/u/.config/hud/config.toml"},
		{"/xdg", "/xdg/hud/config.toml"},
		{"relative/dir", "/home/u/.config/hud/config.toml"}, // the XDG spec: ignore relative paths
	}
	for _, tt := range tests {
		getenv := func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return tt.xdg
			}
			return ""
		}
		if got := DefaultPath("/home/u", getenv); got != tt.want {
			t.Errorf("DefaultPath with XDG_CONFIG_HOME=%q = %q, want %q", tt.xdg, got, tt.want)
		}
	}
	if got := DefaultPath("/home/u", nil); got != "/home/u/.config/hud/config.toml" {
		t.Errorf("DefaultPath(nil getenv) = %q", got)
	}
}

func TestEnsureFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "hud", "config.toml")
	created, err := EnsureFile(path)
	if err != nil || !created {
		t.Fatalf("EnsureFile = %v, %v; want created", created, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != Template() {
		t.Errorf("new file is not the template")
	}
	// Private: notifications.push_url may hold a token.
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("new file's mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temp file left behind: %v", entries)
	}

	// An existing file, edited by the person, is left alone.
	if err := os.WriteFile(path, []byte("[tray]\nshow_title = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	created, err = EnsureFile(path)
	if err != nil || created {
		t.Fatalf("second EnsureFile = %v, %v; want not created", created, err)
	}
	if data, _ := os.ReadFile(path); string(data) != "[tray]\nshow_title = false\n" {
		t.Errorf("EnsureFile overwrote the person's file: %q", data)
	}
}

func TestEnsureFileUnwritableDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	if _, err := EnsureFile(filepath.Join(dir, "hud", "config.toml")); err == nil {
		t.Error("EnsureFile in a read-only directory succeeded")
	}
}

func TestWriteExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	created, err := writeExclusive(path)
	if err != nil || !created {
		t.Fatalf("writeExclusive = %v, %v", created, err)
	}
	if data, _ := os.ReadFile(path); string(data) != Template() {
		t.Error("not the template")
	}
	if created, err := writeExclusive(path); err != nil || created {
		t.Errorf("second writeExclusive = %v, %v; want left alone", created, err)
	}
}

// TestEnsureFileRace: two trays starting at once create the file once,
// whole.
func TestEnsureFileRace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hud", "config.toml")
	const n = 8
	results := make(chan bool, n)
	for range n {
		go func() {
			created, err := EnsureFile(path)
			if err != nil {
				t.Error(err)
			}
			results <- created
		}()
	}
	creators := 0
	for range n {
		if <-results {
			creators++
		}
	}
	if creators != 1 {
		t.Errorf("%d callers created the file, want 1", creators)
	}
	if data, _ := os.ReadFile(path); string(data) != Template() {
		t.Error("the file is not the template")
	}
}
