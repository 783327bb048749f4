package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckDestination(t *testing.T) {
	for _, tt := range []struct {
		d, err string
	}{
		{"devbox", ""},
		{"me@devbox.example.com", ""},
		{"ssh://me@devbox:2222", ""},
		{"", "no ssh destination"},
		{"-oProxyCommand=touch /tmp/x", "starts with '-'"},
		{"dev box", "white space"},
		{"dev\x1bbox", "control character"},
		{strings.Repeat("a", 256), "at most 255"},
	} {
		err := CheckDestination(tt.d)
		if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: %v, want %q", tt.d, err, tt.err)
		}
	}
}

func TestRemoteName(t *testing.T) {
	for d, want := range map[string]string{
		"devbox":                 "devbox",
		"me@devbox":              "devbox",
		"ssh://me@devbox:2222":   "devbox",
		"ssh://devbox":           "devbox",
		"ssh://me@[::1]:22":      "::1",
		"me@10.0.0.2":            "10.0.0.2",
		"ssh://a@b@devbox:22/xx": "devbox",
	} {
		if got := RemoteName(d); got != want {
			t.Errorf("%q: %q, want %q", d, got, want)
		}
	}
}

func TestRemotesFile(t *testing.T) {
	path := RemotesPath(filepath.Join(t.TempDir(), "hud", "config.toml"))
	rs, err := LoadRemotes(path)
	if err != nil || len(rs.Remotes) != 0 {
		t.Fatalf("missing file: %+v, %v", rs, err)
	}
	rs.Remotes = append(rs.Remotes, Remote{Name: "devbox", Destination: "me@devbox", Command: "~/.local/bin/hud"})
	rs.SSHCommand = "ssh -F ~/.ssh/work"
	if err := SaveRemotes(path, rs); err != nil {
		t.Fatal(err)
	}
	got, err := LoadRemotes(path)
	if err != nil || len(got.Remotes) != 1 || got.Remotes[0] != rs.Remotes[0] || got.SSHCommand != rs.SSHCommand || got.Find("devbox") != 0 {
		t.Fatalf("read back %+v, %v", got, err)
	}

	// A hand-edited entry that ssh would read as an option is refused,
	// not dropped in silence.
	if err := os.WriteFile(path, []byte(`{"remotes":[{"name":"x","destination":"-oProxyCommand=sh"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRemotes(path); err == nil || !strings.Contains(err.Error(), "starts with '-'") {
		t.Errorf("got %v", err)
	}
}
