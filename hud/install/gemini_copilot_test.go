package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const personsGeminiSettings = `{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "hooks": {
    "AfterAgent": [
      { "hooks": [ { "type": "command", "command": "notify-send done" } ] }
    ]
  }
}
`

// writeHome puts files (relative to a new home) in place.
func writeHome(t *testing.T, files map[string]string) AgentEnv {
	t.Helper()
	home := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return AgentEnv{Home: home}
}

// TestAgentInstallUninstall: for Gemini and Copilot, a dry run writes
// nothing; install wires every state-carrying event and nothing else; a
// second run changes nothing; doctor's Problems is clean; uninstall gives
// back the person's file byte for byte (Gemini's settings.json) or
// removes hud's own (Copilot's hooks/hud.json, beside the person's).
func TestAgentInstallUninstall(t *testing.T) {
	const personsCopilotHooks = `{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "notify-send done"}]}}`
	cases := []struct {
		agent      *Agent
		files      map[string]string
		path       string // the file install edits
		want       []string
		notWant    []string
		afterUndo  string // "" for removed
		personFile string // a file of the person's install must not touch
	}{
		{
			agent: &Gemini, files: map[string]string{".gemini/settings.json": personsGeminiSettings},
			path:      ".gemini/settings.json",
			want:      []string{`"notify-send done"`, `"selectedType": "gemini-api-key"`, `hud-hook gemini"`, `"BeforeAgent"`, `"Notification"`, `"matcher": "*"`, `"timeout": 5000`},
			notWant:   []string{"PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection"},
			afterUndo: personsGeminiSettings,
		},
		{
			agent: &Copilot, files: map[string]string{".copilot/hooks/mine.json": personsCopilotHooks},
			path:       ".copilot/hooks/hud.json",
			want:       []string{`"version": 1`, ` copilot sessionStart"`, ` copilot agentStop"`, ` copilot notification"`, `"timeoutSec": 5`},
			notWant:    []string{"permissionRequest", "bash"},
			personFile: ".copilot/hooks/mine.json",
		},
	}
	for _, c := range cases {
		t.Run(c.agent.Name, func(t *testing.T) {
			env := writeHome(t, c.files)
			path := filepath.Join(env.Home, c.path)
			hook := fakeHook(t)
			opts := Options{HookPath: hook, Now: func() time.Time { return time.Unix(1e9, 0) }}
			if c.agent.Installed(env) {
				t.Fatal("installed before install")
			}
			before, _ := os.ReadFile(path)
			if res, err := c.agent.Install(env, Options{HookPath: hook, DryRun: true}); err != nil || !res[0].Changed || res[0].Diff == "" {
				t.Fatalf("dry run: %+v, %v", res, err)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Fatal("the dry run wrote the file")
			}
			res, err := c.agent.Install(env, opts)
			if err != nil || !res[0].Changed {
				t.Fatalf("install: %+v, %v", res, err)
			}
			got, _ := os.ReadFile(path)
			var v any
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatalf("not JSON after install: %v\n%s", err, got)
			}
			for _, w := range c.want {
				if !strings.Contains(string(got), w) {
					t.Errorf("installed file lacks %s:\n%s", w, got)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(string(got), w) {
					t.Errorf("installed file has %s:\n%s", w, got)
				}
			}
			if p := c.agent.Problems(env); len(p) != 0 || !c.agent.Installed(env) {
				t.Errorf("after install: problems %q", p)
			}
			if res, err := c.agent.Install(env, opts); err != nil || res[0].Changed {
				t.Errorf("second install changed something: %+v, %v", res, err)
			}
			if _, err := c.agent.Uninstall(env, opts); err != nil {
				t.Fatal(err)
			}
			undone, err := os.ReadFile(path)
			switch {
			case c.afterUndo == "" && !os.IsNotExist(err):
				t.Errorf("uninstall left %s:\n%s", c.path, undone)
			case c.afterUndo != "" && string(undone) != c.afterUndo:
				t.Errorf("uninstall left\n%s\nwant\n%s", undone, c.afterUndo)
			}
			if c.personFile != "" {
				if b, _ := os.ReadFile(filepath.Join(env.Home, c.personFile)); string(b) != c.files[c.personFile] {
					t.Errorf("the person's %s changed:\n%s", c.personFile, b)
				}
			}
			if c.agent.Installed(env) {
				t.Error("still installed after uninstall")
			}
		})
	}
}

// TestCopilotProblems: doctor says what is wrong with hud.json.
func TestCopilotProblems(t *testing.T) {
	hook := fakeHook(t)
	cases := []struct {
		name, body, want string
	}{
		{"a missing event", `{"version":1,"hooks":{"sessionStart":[{"type":"command","command":"` + hook + ` copilot sessionStart"}]}}`, "lacks hud-hook on userPromptSubmitted"},
		{"no event name", `{"version":1,"hooks":{"sessionStart":[{"type":"command","command":"` + hook + ` copilot"}]}}`, "does not name the event"},
		{"a hook that is gone", strings.ReplaceAll(`{"version":1,"hooks":{`+copilotAll()+`}}`, "HOOK", "/nonexistent/hud-hook"), "cannot be run"},
	}
	for _, c := range cases {
		env := writeHome(t, map[string]string{".copilot/hooks/hud.json": c.body})
		p := Copilot.Problems(env)
		if len(p) != 1 || !strings.Contains(p[0], c.want) {
			t.Errorf("%s: problems %q, want one saying %q", c.name, p, c.want)
		}
	}
}

// copilotAll is every event's handler, running HOOK.
func copilotAll() string {
	var parts []string
	for _, ev := range copilotEvents {
		parts = append(parts, `"`+ev+`":[{"type":"command","command":"HOOK copilot `+ev+`"}]`)
	}
	return strings.Join(parts, ",")
}

// TestGeminiHooksDisabled: doctor says so when Gemini runs no hooks.
func TestGeminiHooksDisabled(t *testing.T) {
	env := writeHome(t, map[string]string{".gemini/settings.json": `{"hooksConfig": {"enabled": false}}`})
	if _, err := Gemini.Install(env, Options{HookPath: fakeHook(t)}); err != nil {
		t.Fatal(err)
	}
	p := Gemini.Problems(env)
	if len(p) != 1 || !strings.Contains(p[0], "hooksConfig.enabled") {
		t.Errorf("problems %q, want one about hooksConfig.enabled", p)
	}
}
