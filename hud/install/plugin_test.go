package install

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginHooksCommitted fails when plugin/hooks/hooks.json is not what
// the event list generates: the plugin would wire other events than
// `hud install` does.
func TestPluginHooksCommitted(t *testing.T) {
	want, err := PluginHooks()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "plugin", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("plugin/hooks/hooks.json is out of date: run 'go generate ./hud/install'\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// TestPluginHooksMatchInstall: the plugin's hooks are, event for event,
// the groups `hud install` writes into settings.json.
func TestPluginHooksMatchInstall(t *testing.T) {
	data, err := PluginHooks()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	settings, hook := filepath.Join(dir, "settings.json"), filepath.Join(dir, HookName)
	if err := os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(Options{SettingsPath: settings, HookPath: hook}); err != nil {
		t.Fatal(err)
	}
	installed, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	type handler struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	type file struct {
		Hooks map[string][]struct {
			Matcher *string   `json:"matcher"`
			Hooks   []handler `json:"hooks"`
		} `json:"hooks"`
	}
	var plugin, install file
	if err := json.Unmarshal(data, &plugin); err != nil {
		t.Fatalf("the plugin's hooks file is not JSON: %v", err)
	}
	if err := json.Unmarshal(installed, &install); err != nil {
		t.Fatal(err)
	}
	if len(plugin.Hooks) != len(Events()) || len(install.Hooks) != len(Events()) {
		t.Fatalf("events: plugin %d, install %d, want %d", len(plugin.Hooks), len(install.Hooks), len(Events()))
	}
	for _, ev := range Events() {
		p, i := plugin.Hooks[ev], install.Hooks[ev]
		if len(p) != 1 || len(i) != 1 || len(p[0].Hooks) != 1 || len(i[0].Hooks) != 1 {
			t.Errorf("%s: want one group with one handler in each, plugin %+v, install %+v", ev, p, i)
			continue
		}
		if (p[0].Matcher == nil) != (i[0].Matcher == nil) || p[0].Matcher != nil && *p[0].Matcher != *i[0].Matcher {
			t.Errorf("%s: matcher differs: plugin %v, install %v", ev, p[0].Matcher, i[0].Matcher)
		}
		ph, ih := p[0].Hooks[0], i[0].Hooks[0]
		if ph.Type != ih.Type || ph.Timeout != ih.Timeout || ph.Command != PluginCommand {
			t.Errorf("%s: plugin handler %+v, install handler %+v", ev, ph, ih)
		}
	}
}

// TestPluginCommand runs the plugin's command the way Claude Code does
// (sh -c, the event on stdin): it runs the hud-hook it finds on PATH,
// passing stdin and the exit status on, and without one it exits 0 with
// nothing on stdout or stderr.
func TestPluginCommand(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	run := func(path string) (stdout, stderr string, code int) {
		t.Helper()
		cmd := exec.Command(sh, "-c", PluginCommand)
		cmd.Env = []string{"PATH=" + path, "HOME=" + t.TempDir()}
		cmd.Stdin = bytes.NewBufferString(`{"hook_event_name":"Stop"}`)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), 0
	}

	empty := t.TempDir()
	// /bin for the shell's own helpers only; no hud-hook there.
	if out, errs, code := run(empty + ":/bin"); out != "" || errs != "" || code != 0 {
		t.Errorf("without hud-hook: stdout %q, stderr %q, status %d; want nothing and 0", out, errs, code)
	}

	bin := t.TempDir()
	fake := "#!/bin/sh\ncat > \"$HOME/event\"; echo \"$HOME/event\" >&2; exit 2\n"
	if err := os.WriteFile(filepath.Join(bin, HookName), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	_, errs, code := run(bin + ":/bin:/usr/bin")
	if code != 2 {
		t.Errorf("status %d, want hud-hook's 2", code)
	}
	event, err := os.ReadFile(strings.TrimSpace(errs))
	if err != nil || string(event) != `{"hook_event_name":"Stop"}` {
		t.Errorf("hud-hook got %q (%v), want the event", event, err)
	}
}

// TestPluginCommandSkipsTheProject: the hook runs in the project's
// directory, so a PATH entry that is empty or relative names the
// project's files; the launcher never runs a hud-hook found there, and
// FindPluginHook (doctor's answer) agrees.
func TestPluginCommandSkipsTheProject(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	project := t.TempDir()
	planted := "#!/bin/sh\ntouch \"$HOME/pwned\"\n"
	for _, d := range []string{".", "bin", ".local/bin"} {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, d, HookName), []byte(planted), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ name, path, home string }{
		{"a trailing ':'", "/bin:/usr/bin:", ""},
		{"an empty entry inside", "/bin::/usr/bin", ""},
		{"'.'", ".:/bin:/usr/bin", ""},
		{"a relative directory", "bin:/bin:/usr/bin", ""},
		{"a glob", "/bin:/usr/bin:" + project + "/b*", ""},
		{"a relative HOME", "/bin:/usr/bin", "."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			env := []string{"PATH=" + tt.path, "HOME=" + home}
			if tt.home != "" {
				env[1] = "HOME=" + tt.home
			}
			cmd := exec.Command(sh, "-c", PluginCommand)
			cmd.Dir, cmd.Env = project, env
			out, err := cmd.CombinedOutput()
			if err != nil || len(out) != 0 {
				t.Errorf("launcher: %v, output %q; want exit 0 and nothing", err, out)
			}
			for _, pwned := range []string{filepath.Join(home, "pwned"), filepath.Join(project, "pwned")} {
				if _, err := os.Stat(pwned); err == nil {
					t.Errorf("the project's hud-hook ran (PATH %q)", tt.path)
				}
			}
			getenv := func(k string) string {
				for _, kv := range env {
					if v, ok := strings.CutPrefix(kv, k+"="); ok {
						return v
					}
				}
				return ""
			}
			if got := FindPluginHook(getenv); got != "" && !filepath.IsAbs(got) || strings.HasPrefix(got, project) {
				t.Errorf("FindPluginHook = %q, the project's", got)
			}
		})
	}
}
