package doctor

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/config"
)

// TestAnswering: off is fine; on needs a tray serving the socket and a
// PermissionRequest handler with time to wait.
func TestAnswering(t *testing.T) {
	env := newEnv(t)
	// A short home: the socket's path is limited to about 100 bytes.
	home, err := os.MkdirTemp("", "hud-doc-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	env.Layout.Home = home
	env.ConfigPath = home + "/config.toml"
	env.UserSettings = home + "/settings.json"

	find := func() string {
		var lines []string
		for _, f := range checkAnswering(env) {
			lines = append(lines, f.Severity.mark()+" "+f.Message)
		}
		return strings.Join(lines, "\n")
	}
	if got := find(); !strings.HasPrefix(got, "✓ off") {
		t.Errorf("off: %q", got)
	}
	if err := config.SetBool(env.ConfigPath, "answer", "enabled", true); err != nil {
		t.Fatal(err)
	}
	write(t, env.UserSettings, `{"hooks":{"PermissionRequest":[{"matcher":"*","hooks":[{"type":"command","command":"/opt/hud-hook","timeout":5}]}]}}`, 0o600)
	got := find()
	for _, want := range []string{"! " + env.UserSettings + " gives hud-hook 5s on a permission dialog", "! on, but no tray serves"} {
		if !strings.Contains(got, want) {
			t.Errorf("on, an old install, no tray: %q lacks %q", got, want)
		}
	}
	// A tray holds the socket but its reply fails: not "no tray".
	if err := os.MkdirAll(filepath.Dir(answer.SocketPath(home)), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", answer.SocketPath(home))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("not json\n"))
			c.Close()
		}
	}()
	got = find()
	ln.Close()
	if strings.Contains(got, "no tray") || !strings.Contains(got, "! on, and a tray serves") {
		t.Errorf("on, a tray whose reply fails: %q", got)
	}
	s, err := answer.Listen(answer.SocketPath(home), os.Getuid(), t.Logf, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := find(); !strings.Contains(got, "✓ on: the tray answers (0 dialog(s) waiting)") {
		t.Errorf("on, a tray: %q", got)
	}
}
