package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexHomeFiles writes a Codex home with the person's own hook and
// settings in it.
func codexHomeFiles(t *testing.T, hooks, config string) (AgentEnv, string) {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"hooks.json": hooks, "config.toml": config} {
		if body == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return AgentEnv{Home: home}, dir
}

func fakeHook(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hud-hook")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
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
	hook := fakeHook(t)
	opts := Options{HookPath: hook, Now: func() time.Time { return time.Unix(1e9, 0) }}
	if p := Codex.Problems(env); len(p) != 2 || Codex.Installed(env) {
		t.Fatalf("before install: problems %q, installed %v", p, Codex.Installed(env))
	}
	res, err := Codex.Install(env, opts)
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
	if p := Codex.Problems(env); len(p) != 0 || !Codex.Installed(env) {
		t.Errorf("after install: problems %q", p)
	}
	again, err := Codex.Install(env, opts)
	if err != nil || again[0].Changed || again[1].Changed {
		t.Errorf("a second install changed something: %+v %v", again, err)
	}
	if _, err := Codex.Uninstall(env, opts); err != nil {
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
	hook := fakeHook(t)
	dry, err := Codex.Install(env, Options{HookPath: hook, DryRun: true})
	if err != nil || len(dry) != 2 || !dry[0].Changed || dry[1].Diff == "" {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("a dry run wrote %d files", len(ents))
	}
	if _, err := Codex.Install(env, Options{HookPath: hook}); err != nil {
		t.Fatal(err)
	}
	config, _ := os.ReadFile(filepath.Join(dir, "config.toml"))
	if want := "[features] " + hudMark + "\ndaemon_auto_start = false " + hudMark + "\n"; string(config) != want {
		t.Errorf("config.toml:\n%q\nwant\n%q", config, want)
	}
	if _, err := Codex.Uninstall(env, Options{}); err != nil {
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
