package install

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

func TestInspectPlugins(t *testing.T) {
	all := strconv.Itoa(len(Events()))
	ours, err := PluginHooks()
	if err != nil {
		t.Fatal(err)
	}
	partial := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/bin/hud-hook"}]}]}}`
	other := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-me"}]}]}}`
	// The layout Claude Code 2.1.330 writes for `claude plugin install`.
	installed := `{"version": 2, "plugins": {
	  "hud@hud": [{"scope": "user", "installPath": "$CACHE/hud/hud/abc123", "version": "abc123"}],
	  "fork@elsewhere": [{"scope": "user", "installPath": "$CACHE/elsewhere/fork/1.0.0"}],
	  "notifier@elsewhere": [{"scope": "user", "installPath": "$CACHE/elsewhere/notifier/2.0.0"}]
	}}`

	tests := []struct {
		name            string
		user, local     string
		noInstalledFile bool
		want            []string // ID:events
	}{
		{name: "no settings", want: nil},
		{name: "nothing enabled", user: `{"hooks": {}}`, want: nil},
		{name: "hud's plugin", user: `{"enabledPlugins": {"hud@hud": true}}`, want: []string{"hud@hud:" + all}},
		{name: "disabled in the project's local settings", user: `{"enabledPlugins": {"hud@hud": true}}`,
			local: `{"enabledPlugins": {"hud@hud": false}}`, want: nil},
		{name: "enabled only in the local settings", local: `{"enabledPlugins": {"hud@hud": true}}`, want: []string{"hud@hud:" + all}},
		{name: "a plugin that bundles hud-hook for one event", user: `{"enabledPlugins": {"fork@elsewhere": true}}`,
			want: []string{"fork@elsewhere:1"}},
		{name: "a plugin with hooks of its own only", user: `{"enabledPlugins": {"notifier@elsewhere": true}}`, want: nil},
		{name: "enabled but never installed", user: `{"enabledPlugins": {"gone@nowhere": true}}`, want: nil},
		{name: "no installed_plugins.json", user: `{"enabledPlugins": {"hud@hud": true}}`, noInstalledFile: true, want: nil},
		{name: "settings not JSON", user: `{"enabledPlugins": `, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			claude := filepath.Join(dir, "claude")
			cache := filepath.Join(claude, "plugins", "cache")
			write := func(path, content string) {
				t.Helper()
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(cache, "hud/hud/abc123/hooks/hooks.json"), string(ours))
			write(filepath.Join(cache, "elsewhere/fork/1.0.0/hooks/hooks.json"), partial)
			write(filepath.Join(cache, "elsewhere/notifier/2.0.0/hooks/hooks.json"), other)
			if !tt.noInstalledFile {
				write(filepath.Join(claude, "plugins", "installed_plugins.json"), os.Expand(installed, func(string) string { return cache }))
			}
			user, local := filepath.Join(claude, "settings.json"), filepath.Join(dir, "proj", ".claude", "settings.local.json")
			if tt.user != "" {
				write(user, tt.user)
			}
			if tt.local != "" {
				write(local, tt.local)
			}
			var got []string
			for _, p := range InspectPlugins(claude, []string{user, filepath.Join(dir, "proj", ".claude", "settings.json"), local}) {
				got = append(got, p.ID+":"+strconv.Itoa(len(p.Events)))
				if p.Installed() != (len(p.Events) == len(Events())) {
					t.Errorf("%s: Installed() = %v with %d events", p.ID, p.Installed(), len(p.Events))
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// Inspect of a user settings file that wires no hook itself but enables
// hud's plugin finds no problem; disabled, the plugin no longer counts.
func TestInspectSeesThePlugin(t *testing.T) {
	claude := filepath.Join(t.TempDir(), ".claude")
	settings := filepath.Join(claude, "settings.json")
	hooks, err := PluginHooks()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(claude, "plugins", "cache", "hud", "hud", "0abe2d4e4ff6")
	for path, content := range map[string]string{
		filepath.Join(root, "hooks", "hooks.json"):                 string(hooks),
		filepath.Join(claude, "plugins", "installed_plugins.json"): `{"version": 2, "plugins": {"hud@hud": [{"scope": "user", "installPath": "` + root + `"}]}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ settings, want string }{
		{`{"enabledPlugins": {"hud@hud": true}}`, ""},
		{`{"enabledPlugins": {"hud@hud": false}}`, "Hooks not installed"},
		{`{}`, "Hooks not installed"},
	} {
		if err := os.WriteFile(settings, []byte(tt.settings), 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := Inspect(settings)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Problem(); got != tt.want {
			t.Errorf("%s: Problem() = %q, want %q", tt.settings, got, tt.want)
		}
	}
}
