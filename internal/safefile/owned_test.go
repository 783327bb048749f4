package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOwned(t *testing.T) {
	me := os.Getuid()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mkdir := func(name string, mode os.FileMode) string {
		d := filepath.Join(root, name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
		return d
	}
	private, open, sticky, group := mkdir("p", 0o700), mkdir("o", 0o777), mkdir("s", 0o777|os.ModeSticky), mkdir("g", 0o770)
	for _, d := range []string{private, open, sticky, group} {
		if err := os.WriteFile(filepath.Join(d, "f"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	linked := filepath.Join(root, "l")
	if err := os.Symlink(private, linked); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		uid        int
		want, err  string
	}{
		{"the person's directory", private, me, private, ""},
		{"a file in it", filepath.Join(private, "f"), me, filepath.Join(private, "f"), ""},
		{"in a sticky directory", filepath.Join(sticky, "f"), me, filepath.Join(sticky, "f"), ""},
		{"in a directory the person's group may write", filepath.Join(group, "f"), me, filepath.Join(group, "f"), ""},
		{"through a link: resolved", filepath.Join(linked, "f"), me, filepath.Join(private, "f"), ""},
		{"another user's", filepath.Join(private, "f"), me + 1, "", "not to this user"},
		{"in a directory anyone may write", filepath.Join(open, "f"), me, "", "writable by anyone"},
		{"a directory anyone may write", open, me, "", "writable by anyone"},
		{"missing", filepath.Join(private, "none"), me, "", "no such file"},
		{"relative", "p/f", me, "", "not an absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Owned(tt.path, tt.uid)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("Owned = %q, %v; want an error saying %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Owned = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
