package install

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestInstallStatusLine(t *testing.T) {
	const hud = "/opt/my tools/hud"
	path, orig := copyFixture(t, "own-hooks")
	opts := Options{SettingsPath: path, HookPath: testHook, StatusLineHud: hud}
	res, err := Install(opts)
	if err != nil || res.StatusLineKept {
		t.Fatalf("Install = %+v, %v", res, err)
	}
	b, _ := os.ReadFile(path)
	want := `"statusLine": {
    "type": "command",
    "command": "'/opt/my tools/hud' statusline"
  }
}`
	if !strings.HasSuffix(strings.TrimSpace(string(b)), want) {
		t.Errorf("statusLine not added at the end:\n%s", b)
	}
	if again, err := Install(opts); err != nil || again.Changed {
		t.Errorf("second install = %+v, %v; want no change", again, err)
	}
	// A moved hud is followed.
	opts.StatusLineHud = "/usr/bin/hud"
	if res, err := Install(opts); err != nil || !res.Changed || !strings.Contains(res.Diff, `+    "command": "/usr/bin/hud statusline"`) {
		t.Errorf("install from elsewhere = %+v, %v", res, err)
	}
	if _, err := Uninstall(Options{SettingsPath: path}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Errorf("uninstall did not restore the file:\n%s", unifiedDiff("want", "got", orig, b))
	}
}

func TestInstallKeepsForeignStatusLine(t *testing.T) {
	path, orig := copyFixture(t, "claude-default")
	res, err := Install(Options{SettingsPath: path, HookPath: testHook, StatusLineHud: "/usr/bin/hud"})
	if err != nil || !res.StatusLineKept {
		t.Fatalf("Install = %+v, %v; want the status line kept", res, err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"command": "~/.claude/statusline.sh"`) || strings.Contains(string(b), "hud statusline") {
		t.Errorf("the person's status line was touched:\n%s", b)
	}
	Uninstall(Options{SettingsPath: path})
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Errorf("uninstall touched the person's status line:\n%s", unifiedDiff("want", "got", orig, b))
	}
}

func TestIsOurStatusLine(t *testing.T) {
	for cmd, want := range map[string]bool{
		"hud statusline":                 true,
		"/usr/local/bin/hud statusline":  true,
		"'/opt/my tools/hud' statusline": true,
		"hud status":                     false,
		"hud":                            false,
		"~/.claude/statusline.sh":        false,
		"/opt/hud-hook statusline":       false,
		"hud statusline | cat":           true,
		"'unterminated statusline":       false,
	} {
		v := newObject(field("type", newScalar("command")), field("command", newScalar(cmd)))
		if got := isOurStatusLine(v); got != want {
			t.Errorf("isOurStatusLine(%q) = %v; want %v", cmd, got, want)
		}
	}
}
