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
	Files: []AgentFile{
		agentHooks("gemini", "settings", geminiSettings, geminiEvents, geminiHandler, "*"),
	},
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
