package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListDir(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b", "a"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, dir string
		want      string // the names, joined
		err       string
	}{
		{"a directory, sorted", dir, "a b", ""},
		{"missing holds nothing", filepath.Join(dir, "none"), "", ""},
		{"a file is an error", filepath.Join(dir, "a"), "", "listing things: "},
	}
	for _, tt := range tests {
		entries, err := ListDir(tt.dir, "things")
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if got := strings.Join(names, " "); got != tt.want || (err == nil) != (tt.err == "") ||
			err != nil && !strings.HasPrefix(err.Error(), tt.err) {
			t.Errorf("%s: %q, %v; want %q, %q", tt.name, got, err, tt.want, tt.err)
		}
	}
}
