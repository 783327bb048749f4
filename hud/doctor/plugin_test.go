package doctor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/install"
)

// installPlugin lays hud's plugin out the way `claude plugin install
// hud@hud` (2.1.330) does: enabled in the user's settings, recorded in
// installed_plugins.json, its files in the plugin cache.
func installPlugin(t *testing.T, env *Env) {
	t.Helper()
	hooks, err := install.PluginHooks()
	if err != nil {
		t.Fatal(err)
	}
	claude := env.Layout.ClaudeDir()
	root := filepath.Join(claude, "plugins", "cache", "hud", "hud", "0abe2d4e4ff6")
	write(t, filepath.Join(root, "hooks", "hooks.json"), string(hooks), 0o644)
	write(t, filepath.Join(claude, "plugins", "installed_plugins.json"),
		`{"version": 2, "plugins": {"hud@hud": [{"scope": "user", "installPath": "`+root+`", "version": "0abe2d4e4ff6"}]}}`, 0o644)
	write(t, env.UserSettings, `{"enabledPlugins": {"hud@hud": true}}`, 0o600)
}

// onPath puts a hud-hook on the PATH doctor sees.
func onPath(t *testing.T, env *Env) {
	bin := filepath.Join(env.Layout.Home, "opt", "bin")
	write(t, filepath.Join(bin, "hud-hook"), "#!/bin/sh\n", 0o755)
	env.Getenv = func(k string) string {
		switch k {
		case "PATH":
			return bin
		case "HOME":
			return env.Layout.Home
		}
		return ""
	}
}

func TestPlugin(t *testing.T) {
	all := strconv.Itoa(len(install.Events()))
	tests := []struct {
		name       string
		setup      func(t *testing.T, env *Env)
		want, deny []string
		failed     bool
	}{
		{
			name:  "the plugin alone",
			setup: func(t *testing.T, env *Env) { installPlugin(t, env); onPath(t, env) },
			want: []string{
				"✓ hooks          not in ~/.claude/settings.json: a plugin wires them (below)",
				"✓ plugin         the plugin hud@hud runs hud-hook on " + all + " events",
			},
			deny: []string{"✗ hooks", "! plugin", "✗ plugin"},
		},
		{
			name: "the plugin and hud install: the hook would run twice",
			setup: func(t *testing.T, env *Env) {
				installPlugin(t, env)
				onPath(t, env)
				hook := filepath.Join(env.Layout.Home, "bin", "hud-hook")
				write(t, hook, "#!/bin/sh\n", 0o755)
				if _, err := install.Install(install.Options{SettingsPath: env.UserSettings, HookPath: hook}); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{
				"✓ hooks          installed in ~/.claude/settings.json for " + all + " events",
				"✓ plugin         the plugin hud@hud runs hud-hook on " + all + " events",
				"! plugin         ~/.claude/settings.json wires hud-hook too, so it runs twice on every event",
				"fix: keep one: 'hud uninstall' (the plugin stays), or 'claude plugin uninstall hud@hud'",
			},
		},
		{
			name: "the plugin with no hud-hook to run",
			setup: func(t *testing.T, env *Env) {
				for _, d := range []string{"/opt/homebrew/bin", "/usr/local/bin"} {
					if _, err := os.Stat(filepath.Join(d, "hud-hook")); err == nil {
						t.Skipf("this machine has %s/hud-hook, which the plugin finds", d)
					}
				}
				installPlugin(t, env)
			},
			want:   []string{"✗ plugin         the plugin runs the hud-hook on PATH, and there is none"},
			failed: true,
		},
		{
			name: "the plugin, and a settings file Claude Code cannot read",
			setup: func(t *testing.T, env *Env) {
				installPlugin(t, env)
				onPath(t, env)
				local := filepath.Join(env.Layout.Home, "proj", ".claude", "settings.local.json")
				write(t, local, `{"permissions": `, 0o600)
				env.ProjectSettings = []string{local}
			},
			want:   []string{"✗ hooks          Claude Code cannot read"},
			failed: true,
		},
		{
			name: "the plugin disabled",
			setup: func(t *testing.T, env *Env) {
				installPlugin(t, env)
				onPath(t, env)
				write(t, env.UserSettings, `{"enabledPlugins": {"hud@hud": false}}`, 0o600)
			},
			want:   []string{"✗ hooks          hud-hook is not in ~/.claude/settings.json"},
			deny:   []string{"plugin "},
			failed: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t)
			tt.setup(t, env)
			findings := Run(env)
			out, _ := run(env)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in:\n%s", w, out)
				}
			}
			for _, d := range tt.deny {
				if strings.Contains(out, d) {
					t.Errorf("unexpected %q in:\n%s", d, out)
				}
			}
			var pluginFailed bool
			for _, f := range findings {
				pluginFailed = pluginFailed || (f.Check == "plugin" || f.Check == "hooks") && f.Severity == Fail
			}
			if pluginFailed != tt.failed {
				t.Errorf("hooks or plugin failed = %v, want %v:\n%s", pluginFailed, tt.failed, out)
			}
		})
	}
}
