package install

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFindHook(t *testing.T) {
	root := t.TempDir()
	mk := func(path string, mode os.FileMode) string {
		p := filepath.Join(root, path)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("#!/bin/sh\n"), mode)
		return p
	}
	realHud := mk("opt/hud/bin/hud", 0o755)
	besideReal := mk("opt/hud/bin/hud-hook", 0o755)
	onPath := mk("usr/bin/hud-hook", 0o755)
	mk("notexec/hud-hook", 0o644)
	link := filepath.Join(root, "home/.local/bin/hud")
	os.MkdirAll(filepath.Dir(link), 0o755)
	os.Symlink(realHud, link)

	tests := []struct {
		name string
		loc  Locator
		want string
	}{
		{"beside hud", Locator{Executable: realHud, PATH: filepath.Dir(onPath)}, besideReal},
		{"beside the symlink's target", Locator{Executable: link}, besideReal},
		{"on PATH, skipping a non-executable one", Locator{PATH: filepath.Join(root, "notexec") + string(os.PathListSeparator) + filepath.Dir(onPath)}, onPath},
		{"relative PATH entries are ignored", Locator{PATH: "usr/bin"}, ""},
		{"nowhere", Locator{Executable: filepath.Join(root, "elsewhere/hud")}, ""},
	}
	for _, tt := range tests {
		got, err := tt.loc.FindHook()
		if tt.want == "" {
			if !errors.Is(err, ErrHookNotFound) {
				t.Errorf("%s: got %q, %v; want ErrHookNotFound", tt.name, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestCheckExecutable(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "hud-hook")
	os.WriteFile(exe, nil, 0o755)
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, nil, 0o644)
	if got, err := CheckExecutable(exe); err != nil || got != exe {
		t.Errorf("CheckExecutable(exe) = %q, %v", got, err)
	}
	for _, bad := range []string{plain, dir, filepath.Join(dir, "missing")} {
		if _, err := CheckExecutable(bad); err == nil {
			t.Errorf("CheckExecutable(%s) accepted it", bad)
		}
	}
}
