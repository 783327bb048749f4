package install

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

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
		t.Errorf("uninstall did not restore the file:\n%s", diff.Diff("want", orig, "got", b))
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
		t.Errorf("uninstall touched the person's status line:\n%s", diff.Diff("want", orig, "got", b))
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

func TestStatusLineRefreshInterval(t *testing.T) {
	const cmd = `"command": "/usr/bin/hud statusline"`
	tests := []struct {
		name    string
		before  string
		refresh int
		want    string // the statusLine value after install, compacted
		changed bool
	}{
		{"new, with refresh", `{}`, 1,
			`{"type":"command","command":"/usr/bin/hud statusline","refreshInterval":1}`, true},
		{"new, old client", `{}`, 0,
			`{"type":"command","command":"/usr/bin/hud statusline"}`, true},
		{"ours, refresh added", `{"statusLine": {"type": "command", ` + cmd + `}}`, 1,
			`{"type":"command","command":"/usr/bin/hud statusline","refreshInterval":1}`, true},
		{"the person's interval kept", `{"statusLine": {"type": "command", ` + cmd + `, "refreshInterval": 10, "padding": 2}}`, 1,
			`{"type":"command","command":"/usr/bin/hud statusline","refreshInterval":10,"padding":2}`, false},
		{"moved hud followed, interval kept", `{"statusLine": {"type": "command", "command": "/old/hud statusline", "refreshInterval": 5}}`, 1,
			`{"type":"command","command":"/usr/bin/hud statusline","refreshInterval":5}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := t.TempDir() + "/settings.json"
			if _, err := Install(Options{SettingsPath: path, HookPath: testHook}); err != nil {
				t.Fatal(err)
			}
			// Start from the hooks installed plus the statusLine under test.
			b, _ := os.ReadFile(path)
			var doc map[string]any
			must(t, json.Unmarshal(b, &doc))
			var extra map[string]any
			must(t, json.Unmarshal([]byte(tt.before), &extra))
			maps.Copy(doc, extra)
			b, _ = json.MarshalIndent(doc, "", "  ")
			must(t, os.WriteFile(path, b, 0o600))

			res, err := Install(Options{SettingsPath: path, HookPath: testHook, StatusLineHud: "/usr/bin/hud", StatusLineRefresh: tt.refresh})
			if err != nil || res.Changed != tt.changed {
				t.Fatalf("Install = changed %v, %v; want changed %v", res.Changed, err, tt.changed)
			}
			b, _ = os.ReadFile(path)
			var after struct{ StatusLine json.RawMessage }
			must(t, json.Unmarshal(b, &after))
			var got, want any
			must(t, json.Unmarshal(after.StatusLine, &got))
			must(t, json.Unmarshal([]byte(tt.want), &want))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("statusLine = %s\nwant         %s", after.StatusLine, tt.want)
			}
			if _, err := Uninstall(Options{SettingsPath: path}); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); strings.Contains(string(b), "statusLine") {
				t.Errorf("uninstall left the status line:\n%s", b)
			}
		})
	}
}

func TestRefreshInterval(t *testing.T) {
	tests := []struct {
		v    string
		want int
	}{
		{"2.1.97", DefaultRefreshInterval},
		{"2.1.330", DefaultRefreshInterval},
		{"2.1.96", 0},
		{"2.0.999", 0},
		{"1.9.0", 0},
		{"3.0.0", DefaultRefreshInterval},
		{"2.1.97-beta.1", DefaultRefreshInterval},
		{"", DefaultRefreshInterval},        // unknown: the oldest supported client
		{"garbage", DefaultRefreshInterval}, // the same
	}
	for _, tt := range tests {
		v, _ := hookevents.ParseVersion(tt.v)
		if got := RefreshInterval(v); got != tt.want {
			t.Errorf("RefreshInterval(%q) = %d, want %d", tt.v, got, tt.want)
		}
	}
}
