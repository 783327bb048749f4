package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/install"
)

// The tray's "Hooks not installed" gives way to hud's plugin, and comes
// back when the plugin is disabled.
func TestHookCheckSeesThePlugin(t *testing.T) {
	claude := filepath.Join(t.TempDir(), ".claude")
	settings := filepath.Join(claude, "settings.json")
	hooks, err := install.PluginHooks()
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
	h := &hookCheck{path: settings}
	if got := h.problem(); got != "Hooks not installed" {
		t.Errorf("no settings: %q, want Hooks not installed", got)
	}
	for i, tt := range []struct{ settings, want string }{
		{`{"enabledPlugins": {"hud@hud": true}}`, ""},
		{`{"enabledPlugins": {"hud@hud": false}}`, "Hooks not installed"},
	} {
		if err := os.WriteFile(settings, []byte(tt.settings), 0o600); err != nil {
			t.Fatal(err)
		}
		// The check reads the file again only when it changed.
		mtime := time.Now().Add(time.Duration(i+1) * time.Second)
		if err := os.Chtimes(settings, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		if got := h.problem(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.settings, got, tt.want)
		}
	}
}
