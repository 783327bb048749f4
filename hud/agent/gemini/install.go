package gemini

import (
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/hookevents"
	"github.com/capacitor-hud/hud/hud/install"
)

// Setup is how `hud install gemini` wires hud-hook into Gemini CLI. Its
// hooks live in its settings.json (~/.gemini/settings.json, beside the
// person's other settings) in Claude Code's shape; hud's handler runs
// `hud-hook gemini` on each event that carries state (the payload names
// the event). Gemini reads every hook's stdout as JSON, which the hook
// answers with "{}".
//
// Built on the call, nothing at package level: hud-hook links this
// package and never calls Setup, so the linker leaves it out of the hook.
func (Gemini) Setup() *install.Setup {
	f := install.ClaudeHooks{
		Agent: Name, What: "settings", Path: settingsFile, Events: hookEvents(),
		// Gemini counts its timeout in milliseconds.
		TimeoutKey: "timeout", Timeout: install.DefaultTimeout * 1000,
		Matcher: "*",
	}.File()
	hooksProblem := f.Problem
	f.Problem = func(e install.Env, path string) string {
		if p := hooksProblem(e, path); p != "" {
			return p
		}
		return hooksDisabled(path)
	}
	return &install.Setup{Product: "Gemini CLI", Files: []install.File{f}}
}

// hooksDisabled is doctor's check that Gemini runs hooks at all:
// hooksConfig.enabled false in settings.json turns every hook off, as
// Claude's disableAllHooks does.
func hooksDisabled(path string) string {
	v, err := install.JSONScalar(path, "hooksConfig", "enabled")
	if err != nil || v != "false" {
		return "" // an unreadable file is the hooks check's to report
	}
	return path + " sets hooksConfig.enabled to false: Gemini CLI runs no hook, hud's included; remove it or set it to true"
}

// hookEvents are Gemini's hook events that carry state. Left out:
// PreCompress, which fires before every model call whether or not it
// compresses anything, and BeforeModel, AfterModel and
// BeforeToolSelection, which fire around every model call (AfterModel
// once per streamed chunk) and carry the whole request.
func hookEvents() []hookevents.Spec {
	return []hookevents.Spec{
		{Name: "SessionStart"}, {Name: "BeforeAgent"},
		{Name: "BeforeTool", Tool: true}, {Name: "AfterTool", Tool: true},
		{Name: "Notification"}, {Name: "AfterAgent"}, {Name: "SessionEnd"},
	}
}

func settingsFile(e install.Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") }
