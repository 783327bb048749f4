package copilot

import (
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/agent/agenttest"
)

// TestInstallUninstall: install writes hud's own hooks/hud.json, naming
// each state-carrying event and nothing else, beside the person's hooks
// file, which it never touches; uninstall removes hud.json.
func TestInstallUninstall(t *testing.T) {
	const personsHooks = `{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "notify-send done"}]}}`
	agenttest.CheckInstall(t, agenttest.Install{
		Setup: Copilot{}.Setup(), Files: map[string]string{".copilot/hooks/mine.json": personsHooks},
		Path:       ".copilot/hooks/hud.json",
		Want:       []string{`"version": 1`, ` copilot sessionStart"`, ` copilot agentStop"`, ` copilot notification"`, `"timeoutSec": 5`},
		NotWant:    []string{"permissionRequest", "bash"},
		PersonFile: ".copilot/hooks/mine.json",
	})
}

// TestProblems: doctor says what is wrong with hud.json.
func TestProblems(t *testing.T) {
	hook := agenttest.FakeHook(t)
	cases := []struct {
		name, body, want string
	}{
		{"a missing event", `{"version":1,"hooks":{"sessionStart":[{"type":"command","command":"` + hook + ` copilot sessionStart"}]}}`, "lacks hud-hook on userPromptSubmitted"},
		{"no event name", `{"version":1,"hooks":{"sessionStart":[{"type":"command","command":"` + hook + ` copilot"}]}}`, "does not name the event"},
		{"a hook that is gone", strings.ReplaceAll(`{"version":1,"hooks":{`+allEvents()+`}}`, "HOOK", "/nonexistent/hud-hook"), "cannot be run"},
	}
	for _, c := range cases {
		env := agenttest.Home(t, map[string]string{".copilot/hooks/hud.json": c.body})
		p := Copilot{}.Setup().Problems(env)
		if len(p) != 1 || !strings.Contains(p[0], c.want) {
			t.Errorf("%s: problems %q, want one saying %q", c.name, p, c.want)
		}
	}
}

// allEvents is every event's handler, running HOOK.
func allEvents() string {
	var parts []string
	for _, ev := range hookEvents() {
		parts = append(parts, `"`+ev+`":[{"type":"command","command":"HOOK copilot `+ev+`"}]`)
	}
	return strings.Join(parts, ",")
}
