package gemini

import (
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/agent/agenttest"
	"github.com/capacitor-hud/hud/hud/install"
)

const personsSettings = `{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "hooks": {
    "AfterAgent": [
      { "hooks": [ { "type": "command", "command": "notify-send done" } ] }
    ]
  }
}
`

// TestInstallUninstall: install wires every state-carrying event beside
// the person's settings and hooks, and nothing else; uninstall gives back
// settings.json byte for byte.
func TestInstallUninstall(t *testing.T) {
	agenttest.CheckInstall(t, agenttest.Install{
		Setup: Gemini{}.Setup(), Files: map[string]string{".gemini/settings.json": personsSettings},
		Path:      ".gemini/settings.json",
		Want:      []string{`"notify-send done"`, `"selectedType": "gemini-api-key"`, `hud-hook gemini"`, `"BeforeAgent"`, `"Notification"`, `"matcher": "*"`, `"timeout": 5000`},
		NotWant:   []string{"PreCompress", "BeforeModel", "AfterModel", "BeforeToolSelection"},
		AfterUndo: personsSettings,
	})
}

// TestHooksDisabled: doctor says so when Gemini runs no hooks.
func TestHooksDisabled(t *testing.T) {
	env := agenttest.Home(t, map[string]string{".gemini/settings.json": `{"hooksConfig": {"enabled": false}}`})
	setup := Gemini{}.Setup()
	if _, err := setup.Install(env, install.Options{HookPath: agenttest.FakeHook(t)}); err != nil {
		t.Fatal(err)
	}
	p := setup.Problems(env)
	if len(p) != 1 || !strings.Contains(p[0], "hooksConfig.enabled") {
		t.Errorf("problems %q, want one about hooksConfig.enabled", p)
	}
}
