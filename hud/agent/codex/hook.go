package codex

import (
	"encoding/json"
	"slices"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
)

// hookSource is how hud-hook reads Codex. Its hooks (~/.codex/hooks.json) take
// Claude Code's shape and send Claude's payloads (session_id, cwd,
// hook_event_name, tool_name "Bash" with tool_input.command, …), so the
// decoder only renames what Codex names differently:
//
//   - Interrupt is Codex's end of a turn the person stopped (Esc, or a
//     permission denied, which aborts the turn): it fires instead of
//     Stop, and means the same to the state machine.
//   - PreModelRequest fires before every model call: a heartbeat at
//     most, and hud does not wire it.
//   - A question (request_user_input, Plan mode) fires PreToolUse and
//     then waits for the person with no PermissionRequest: its PreToolUse
//     is the dialog opening, read as Claude's AskUserQuestion dialog
//     (whose input has the same questions, headers and options), and its
//     PostToolUse, the answer, as that tool's.
//   - PermissionRequest's tool_input carries the model's justification
//     ("description") beside the command, which the tool events of the
//     same call do not: without it the call is known as the same one, so
//     its PostToolUse (approved, run) ends the wait.
//
// A turn that ends in an API error fires nothing at all; the readers take
// that from Codex's rollout file (Log).
var hookSource = hook.Source{
	Name:    Name,
	Process: "Codex",
	Decode: func(_ string, b []byte) (*hook.Event, error) {
		ev, err := hook.DecodeEvent(b)
		if err != nil {
			return nil, err
		}
		switch ev.HookEventName {
		case interrupt:
			ev.HookEventName = hook.EventStop
		case preModelRequest:
			return nil, nil
		case hook.EventPermissionRequest:
			ev.ToolInput = withoutField(ev.ToolInput, "description")
		}
		if ev.ToolName == questionTool {
			ev.ToolName = answer.AskUserQuestion
			if ev.HookEventName == hook.EventPreToolUse {
				ev.HookEventName = hook.EventPermissionRequest
			}
		}
		return ev, nil
	},
	IsProcess: func(paths.Layout) func(proc.Process) bool {
		return isCodex
	},
	Refuse: sharedAppServer,
}

// Codex's own hook events that Claude Code has no name for.
const (
	interrupt       = "Interrupt"
	preModelRequest = "PreModelRequest"
	// questionTool is Codex's ask-the-person tool.
	questionTool = "request_user_input"
)

var isCodex = proc.IsExecutable("codex")

// sharedAppServer refuses the shared background app server as a session's
// process. By default the first Codex starts one (`codex app-server …
// --managed-daemon`) that runs every Codex's hooks: it stands for no one
// terminal, outlives each of them, and /exit fires no SessionEnd there, so
// a lock tied to it would keep every ended session alive, and the walk
// above it reaches whichever Codex happened to start it. With
// features.daemon_auto_start = false, which `hud install codex` sets, each
// Codex runs its own hooks and is their parent.
func sharedAppServer(p proc.Process) string {
	args, err := proc.Cmdline(p.PID)
	if err != nil || !slices.Contains(args, "app-server") {
		return ""
	}
	return "Codex's shared app server runs the hooks, so the terminal's Codex is unknown: set features.daemon_auto_start = false in ~/.codex/config.toml (hud install codex does)"
}

// withoutField returns the JSON object in without its field name; in
// itself when it is no object or has no such field.
func withoutField(in json.RawMessage, name string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) != nil {
		return in
	}
	if _, ok := m[name]; !ok {
		return in
	}
	delete(m, name)
	out, err := json.Marshal(m)
	if err != nil {
		return in
	}
	return out
}
