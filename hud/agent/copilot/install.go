package copilot

import (
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/install"
)

// Setup is how `hud install copilot` wires hud-hook into Copilot CLI. It
// reads every *.json in its hooks directory (~/.copilot/hooks, or
// $COPILOT_HOME/hooks), so hud's hooks go into a file of their own,
// hud.json, in Copilot's format (install.FlatHooks): the person's files
// are never touched, and since its payloads do not name their event, each
// handler passes it: `hud-hook copilot <event>`.
//
// Built on the call, nothing at package level: hud-hook links this
// package and never calls Setup, so the linker leaves it out of the hook.
func (Copilot) Setup() *install.Setup {
	return &install.Setup{
		Product: "Copilot CLI",
		Files: []install.File{install.FlatHooks{
			Agent: Name, What: "hooks", Path: hooksFile, Events: hookEvents(),
			TimeoutKey: "timeoutSec", Timeout: install.DefaultTimeout,
		}.File()},
	}
}

// hookEvents are Copilot's hook events that carry state. Left out:
// permissionRequest, which fires for every tool call, also the ones the
// person allowed for good (the open dialog is notification's
// permission_prompt), and preCompact, subagentStop, whose ends Copilot
// does not report.
func hookEvents() []string {
	return []string{
		"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse",
		"postToolUseFailure", "notification", "errorOccurred", "agentStop", "sessionEnd",
	}
}

// hooksFile is hud's hooks file in Copilot's directory ($COPILOT_HOME,
// else ~/.copilot).
func hooksFile(e install.Env) string {
	return filepath.Join(e.Dir("COPILOT_HOME", ".copilot"), "hooks", "hud.json")
}
