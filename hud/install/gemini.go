package install

import (
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

// Gemini is Google's Gemini CLI. Its hooks live in its settings.json
// (~/.gemini/settings.json, beside the person's other settings) in Claude
// Code's shape; hud's handler runs `hud-hook gemini` on each event that
// carries state (the payload names the event). Gemini reads every hook's
// stdout as JSON, which the hook answers with "{}".
var Gemini = Agent{
	Name:  "gemini",
	Label: "Gemini CLI",
	Files: []AgentFile{geminiFile()},
}

// geminiFile is Gemini's settings.json as install edits it, with doctor's
// check that Gemini runs hooks at all: hooksConfig.enabled false turns
// every hook off, as Claude's disableAllHooks does.
func geminiFile() AgentFile {
	f := agentHooks("gemini", "settings", geminiSettings, geminiEvents, geminiHandler, "*")
	hooksProblem := f.Problem
	f.Problem = func(e AgentEnv, path string) string {
		if p := hooksProblem(e, path); p != "" {
			return p
		}
		return geminiHooksDisabled(path)
	}
	return f
}

// geminiHooksDisabled says so when settings.json turns hooks off.
func geminiHooksDisabled(path string) string {
	data, _, err := read(path)
	if err != nil {
		return "" // hooksProblem read it a moment ago; nothing more to say
	}
	doc, err := parseSettings(path, data)
	if err != nil || doc.root.kind != kindObject {
		return ""
	}
	cfg := doc.root.get("hooksConfig")
	if cfg == nil || cfg.kind != kindObject {
		return ""
	}
	if v := cfg.get("enabled"); v != nil && v.kind == kindScalar && string(v.raw) == "false" {
		return path + " sets hooksConfig.enabled to false: Gemini CLI runs no hook, hud's included; remove it or set it to true"
	}
	return ""
}

// geminiEvents are Gemini's hook events that carry state. Left out:
// PreCompress, which fires before every model call whether or not it
// compresses anything, and BeforeModel, AfterModel and
// BeforeToolSelection, which fire around every model call (AfterModel
// once per streamed chunk) and carry the whole request.
var geminiEvents = []hookevents.Spec{
	{Name: "SessionStart"}, {Name: "BeforeAgent"},
	{Name: "BeforeTool", Tool: true}, {Name: "AfterTool", Tool: true},
	{Name: "Notification"}, {Name: "AfterAgent"}, {Name: "SessionEnd"},
}

// geminiTimeout is the handler's timeout: Gemini counts in milliseconds.
const geminiTimeout = DefaultTimeout * 1000

func geminiHandler(command string) *node {
	return newObject(
		field("type", newScalar("command")),
		field("command", newScalar(command)),
		field("timeout", newScalar(geminiTimeout)),
	)
}

func geminiSettings(e AgentEnv) string { return filepath.Join(e.Home, ".gemini", "settings.json") }
