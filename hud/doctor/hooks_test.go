package doctor

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/internal/paths"
)

// Doctor says where it found the hooks: the user settings of each config
// dir it follows, the project settings it was pointed at, those of the
// live sessions' projects.
func TestWhereHooksAreFound(t *testing.T) {
	type setup struct {
		work, project, session bool // hooks in ~/.claude-work, the --project dir, a live session's project
	}
	tests := []struct {
		name   string
		setup  setup
		want   []string
		absent []string
		failed bool
	}{
		{"nowhere", setup{}, []string{"✗ hooks  hud-hook is not in ~/.claude/settings.json, ~/.claude-work/settings.json"}, nil, true},
		{"a second config dir", setup{work: true},
			[]string{"✓ hooks  installed in ~/.claude-work/settings.json (user settings of config dir ~/.claude-work)"},
			[]string{"installed only in", "✗ hooks"}, false},
		{"a live session's project", setup{session: true},
			[]string{"✓ hooks  installed in ~/live/.claude/settings.json (project settings of a live session)",
				"! hooks  installed only in ~/live/.claude/settings.json: sessions of other projects do not report"},
			nil, false},
		{"everywhere, one line each", setup{work: true, project: true, session: true},
			[]string{"(user settings of config dir ~/.claude-work)", "~/proj/.claude/settings.json (project settings)",
				"(project settings of a live session)"},
			[]string{"installed only in"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t)
			home := env.Layout.Home
			hook := filepath.Join(home, "bin", "hud-hook")
			write(t, hook, "#!/bin/sh\n", 0o755)
			wire := func(path string) {
				if _, err := install.Install(install.Options{SettingsPath: path, HookPath: hook}); err != nil {
					t.Fatal(err)
				}
			}
			work := env.Layout.WithConfig(filepath.Join(home, ".claude-work"))
			env.ConfigDirSettings = []string{work.UserSettingsPath()}
			if tt.setup.work {
				wire(work.UserSettingsPath())
			}
			env.ProjectSettings = []string{filepath.Join(home, "proj", ".claude", "settings.json")}
			if tt.setup.project {
				wire(env.ProjectSettings[0])
			}
			env.SessionProjects = []string{filepath.Join(home, "live")}
			if tt.setup.session {
				wire(filepath.Join(home, "live", ".claude", "settings.json"))
			}
			var hooks []Finding
			for _, f := range Run(env) {
				if f.Check == "hooks" {
					hooks = append(hooks, f)
				}
			}
			var b strings.Builder
			Write(&b, hooks, home)
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in:\n%s", w, out)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(out, a) {
					t.Errorf("unexpected %q in:\n%s", a, out)
				}
			}
			if Failed(hooks) != tt.failed {
				t.Errorf("failed = %v, want %v:\n%s", Failed(hooks), tt.failed, out)
			}
		})
	}
}

// Locks are counted in the sessions/ of every followed config dir.
func TestLocksOfEveryConfigDir(t *testing.T) {
	env := newEnv(t)
	work := env.Layout.WithConfig(filepath.Join(env.Layout.Home, ".claude-work"))
	env.LockDirs = []string{env.Layout.LockDir(), work.LockDir()}
	write(t, filepath.Join(work.LockDir(), paths.LockName("/w", 100), "meta.json"), `{"pid":100,"path":"/w","created":1,"proc_started":1}`, 0o600)
	var b strings.Builder
	Write(&b, checkLocks(env), env.Layout.Home)
	for _, w := range []string{"0 live lock(s) in ~/.claude/sessions", "1 live lock(s) in ~/.claude-work/sessions"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("missing %q in:\n%s", w, b.String())
		}
	}
}

func TestConfigDirsCheck(t *testing.T) {
	env := newEnv(t)
	l := env.Layout
	check := func() string {
		var b strings.Builder
		Write(&b, checkConfigDirs(env), l.Home)
		return b.String()
	}
	if out := check(); !strings.Contains(out, "✓") || !strings.Contains(out, "no other config directory") {
		t.Errorf("none wired:\n%s", out)
	}
	write(t, l.ConfigDirsPath(), `{"config_dirs":["`+l.Home+`/.claude-work"]}`, 0o600)
	if out := check(); !strings.Contains(out, "following ~/.claude and ~/.claude-work") {
		t.Errorf("one wired:\n%s", out)
	}
	write(t, l.ConfigDirsPath(), `{`, 0o600)
	if out := check(); !strings.Contains(out, "✗") || !strings.Contains(out, "fix: fix or remove ~/.capacitor/config-dirs.json") {
		t.Errorf("broken list:\n%s", out)
	}
}
