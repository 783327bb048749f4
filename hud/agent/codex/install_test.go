package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/agenttest"
	"github.com/capacitor-hud/hud/hud/install"
)

// codexHomeFiles writes a Codex home with the person's own hook and
// settings in it (none for ""), and its .codex directory.
func codexHomeFiles(t *testing.T, hooks, config string) (install.Env, string) {
	t.Helper()
	files := map[string]string{}
	for name, body := range map[string]string{"hooks.json": hooks, "config.toml": config} {
		if body != "" {
			files[filepath.Join(".codex", name)] = body
		}
	}
	env := agenttest.Home(t, files)
	dir := filepath.Join(env.Home, ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return env, dir
}

const personsCodexHooks = `{
  "hooks": {
    "Stop": [
      {
        "hooks": [{ "type": "command", "command": "notify-send done" }]
      }
    ]
  }
}
`

const personsCodexConfig = `model = "gpt-5-codex" # mine

[features]
web_search = true

[projects."/home/u/api"]
trust_level = "trusted"
`

// TestCodexInstallUninstall: install adds hud's handler to every event
// and the daemon setting into the person's [features]; a second run
// changes nothing; uninstall gives back the files byte for byte.
func TestCodexInstallUninstall(t *testing.T) {
	env, dir := codexHomeFiles(t, personsCodexHooks, personsCodexConfig)
	setup := Codex{}.Setup()
	hook := agenttest.FakeHook(t)
	opts := install.Options{HookPath: hook, Now: func() time.Time { return time.Unix(1e9, 0) }}
	if p := setup.Problems(env); len(p) != 2 || setup.Installed(env) {
		t.Fatalf("before install: problems %q, installed %v", p, setup.Installed(env))
	}
	res, err := setup.Install(env, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || !res[0].Changed || !res[1].Changed || res[0].Backup == "" {
		t.Fatalf("results %+v", res)
	}
	hooks, _ := os.ReadFile(filepath.Join(dir, "hooks.json"))
	config, _ := os.ReadFile(filepath.Join(dir, "config.toml"))
	for _, want := range []string{`"notify-send done"`, hook + " codex", `"Interrupt"`, `"PermissionRequest"`} {
		if !strings.Contains(string(hooks), want) {
			t.Errorf("hooks.json lacks %s:\n%s", want, hooks)
		}
	}
	if strings.Contains(string(hooks), "PreModelRequest") || strings.Contains(string(hooks), "matcher") {
		t.Errorf("hooks.json wires more than it needs:\n%s", hooks)
	}
	wantConfig := strings.Replace(personsCodexConfig, "[features]\n", "[features]\ndaemon_auto_start = false "+hudMark+"\n", 1)
	if string(config) != wantConfig {
		t.Errorf("config.toml:\n%s\nwant:\n%s", config, wantConfig)
	}
	if p := setup.Problems(env); len(p) != 0 || !setup.Installed(env) {
		t.Errorf("after install: problems %q", p)
	}
	again, err := setup.Install(env, opts)
	if err != nil || again[0].Changed || again[1].Changed {
		t.Errorf("a second install changed something: %+v %v", again, err)
	}
	if _, err := setup.Uninstall(env, opts); err != nil {
		t.Fatal(err)
	}
	hooks, _ = os.ReadFile(filepath.Join(dir, "hooks.json"))
	config, _ = os.ReadFile(filepath.Join(dir, "config.toml"))
	if string(hooks) != personsCodexHooks || string(config) != personsCodexConfig {
		t.Errorf("uninstall left:\n%s\n%s", hooks, config)
	}
}

// TestCodexInstallFresh: with no files, install creates both, and
// uninstall removes them again; a dry run writes nothing.
func TestCodexInstallFresh(t *testing.T) {
	env, dir := codexHomeFiles(t, "", "")
	setup := Codex{}.Setup()
	hook := agenttest.FakeHook(t)
	dry, err := setup.Install(env, install.Options{HookPath: hook, DryRun: true})
	if err != nil || len(dry) != 2 || !dry[0].Changed || dry[1].Diff == "" {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("a dry run wrote %d files", len(ents))
	}
	if _, err := setup.Install(env, install.Options{HookPath: hook}); err != nil {
		t.Fatal(err)
	}
	config, _ := os.ReadFile(filepath.Join(dir, "config.toml"))
	if want := "[features] " + hudMark + "\ndaemon_auto_start = false " + hudMark + "\n"; string(config) != want {
		t.Errorf("config.toml:\n%q\nwant\n%q", config, want)
	}
	if _, err := setup.Uninstall(env, install.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"hooks.json", "config.toml"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("uninstall left %s (%v)", name, err)
		}
	}
}

// TestCodexDaemonSetting: the person's own setting is read wherever TOML
// allows it, and their true is never overridden.
func TestCodexDaemonSetting(t *testing.T) {
	cases := []struct {
		config  string
		changed bool
		err     string
	}{
		{"[features]\ndaemon_auto_start = false\n", false, ""},
		{"features.daemon_auto_start = false\n[tui]\nx = 1\n", false, ""},
		{"[features]\ndaemon_auto_start = true\n", false, "sets daemon_auto_start = true"},
		{"features = { web_search = true }\n", false, "inline table"},
		{"[tui]\ndaemon_auto_start = true\n", true, ""}, // another table's key
		{"[[profiles]]\n[features]\n", true, ""},
		{"[features] # mine\r\ndaemon_auto_start = false # mine\r\n", false, ""},
	}
	for _, c := range cases {
		updated, _, err := setDaemonOff("config.toml", []byte(c.config))
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.config, err, c.err)
			}
		case err != nil:
			t.Errorf("%q: %v", c.config, err)
		case (string(updated) != c.config) != c.changed:
			t.Errorf("%q: became %q (changed: want %v)", c.config, updated, c.changed)
		}
	}
}
