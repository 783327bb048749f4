package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/agent/agenttest"
	"github.com/capacitor-hud/hud/hud/install"
)

// TestInstallUninstall: install writes hud's plugin with the
// hook's path in it, once; a plugin of the same name that is not hud's is
// never touched; uninstall removes hud's.
func TestInstallUninstall(t *testing.T) {
	home := t.TempDir()
	env := install.Env{Home: home}
	setup := OpenCode{}.Setup()
	hook := agenttest.FakeHook(t)
	path := filepath.Join(home, ".config", "opencode", "plugins", "hud.js")
	if setup.Installed(env) {
		t.Fatal("installed before install")
	}
	res, err := setup.Install(env, install.Options{HookPath: hook})
	if err != nil || len(res) != 1 || !res[0].Changed || !res[0].Created {
		t.Fatalf("install: %+v %v", res, err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `const HOOK = "`+hook+`"`) || strings.Contains(string(b), "__HUD_HOOK__") {
		t.Errorf("the plugin does not run %s:\n%s", hook, b)
	}
	if p := setup.Problems(env); len(p) != 0 || !setup.Installed(env) {
		t.Errorf("after install: %q", p)
	}
	if again, err := setup.Install(env, install.Options{HookPath: hook}); err != nil || again[0].Changed {
		t.Errorf("a second install changed something: %+v %v", again, err)
	}
	os.Remove(hook)
	if p := setup.Problems(env); len(p) != 1 || !strings.Contains(p[0], "cannot be run") {
		t.Errorf("hook gone: %q", p)
	}
	if _, err := setup.Uninstall(env, install.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("uninstall left the plugin (%v)", err)
	}

	// Someone else's hud.js.
	if err := os.WriteFile(path, []byte("export const Mine = async () => ({})\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := setup.Install(env, install.Options{HookPath: agenttest.FakeHook(t)}); err == nil || install.HintOf(err) == "" {
		t.Errorf("install over another plugin: %v", err)
	}
	if _, err := setup.Uninstall(env, install.Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "export const Mine = async () => ({})\n" {
		t.Errorf("another plugin touched: %q", b)
	}
}
