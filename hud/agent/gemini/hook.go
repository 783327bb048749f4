package gemini

import (
	"encoding/json"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/hud/hookevents"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
)

// hookSource is how hud-hook reads Gemini CLI. Its hooks
// (~/.gemini/settings.json) take Claude Code's matcher-group shape and
// send snake_case payloads close to Claude's (session_id, cwd,
// transcript_path, hook_event_name, tool_name, tool_input), under names
// of its own:
//
//   - BeforeAgent / AfterAgent open and close a turn: UserPromptSubmit and
//     Stop. AfterAgent fires after an Esc and after an API error too.
//   - BeforeTool / AfterTool are PreToolUse / PostToolUse.
//   - Notification(ToolPermission) is the open dialog. It comes for a
//     permission and for the ask_user tool's questions alike.
//   - PreCompress(auto) fires before every model call whether or not
//     anything is compressed, so it says nothing; BeforeModel, AfterModel
//     and BeforeToolSelection fire around every call and carry the whole
//     request. None of them is wired (hud install gemini).
//   - SessionEnd fires three times on /quit: the first ends the record,
//     the others find none.
//
// A denial at the dialog fires nothing at all: the readers take it from
// Gemini's chat file (Log). Gemini parses every hook's stdout as
// JSON, so the hook answers "{}", which asks nothing of it.
var hookSource = hook.Source{
	Name:    Name,
	Process: "Gemini CLI",
	Decode:  decode,
	// Gemini relaunches itself in a second node process (with a larger
	// heap) that runs the hooks; the walk finds that one first, and it
	// lives exactly as long as the session.
	IsProcess: func(paths.Layout) func(proc.Process) bool { return isGemini },
	Reply:     "{}",
}

var isGemini = proc.IsExecutable("gemini")

// Gemini's hook events and values that hud reads.
const (
	beforeAgent    = "BeforeAgent"
	afterAgent     = "AfterAgent"
	beforeTool     = "BeforeTool"
	afterTool      = "AfterTool"
	toolPermission = "ToolPermission"
	askUser        = "ask_user"
)

func decode(_ string, b []byte) (*hook.Event, error) {
	ev, err := hook.DecodeEvent(b)
	if err != nil {
		return nil, err
	}
	// Gemini's ask_user takes Claude's AskUserQuestion input (questions
	// with question and header), so its dialog reads the same.
	if ev.ToolName == askUser {
		ev.ToolName = answer.AskUserQuestion
	}
	switch ev.HookEventName {
	case hook.EventSessionStart, hook.EventSessionEnd:
	case beforeAgent:
		ev.HookEventName = hook.EventUserPromptSubmit
	case afterAgent:
		ev.HookEventName = hook.EventStop
	case beforeTool:
		ev.HookEventName = hook.EventPreToolUse
		if ev.ToolName == answer.AskUserQuestion {
			// The question is up as soon as the tool runs; the
			// notification after it says only "Tool requires
			// confirmation".
			ev.HookEventName = hook.EventPermissionRequest
		}
	case afterTool:
		ev.HookEventName = hook.EventPostToolUse
	case hook.EventNotification:
		if ev.NotificationType != toolPermission {
			return nil, nil
		}
		ev.NotificationType = hookevents.PermissionPrompt
		ev.Message = dialog(b, ev)
	default:
		return nil, nil
	}
	return ev, nil
}

// dialog says what a ToolPermission notification waits for: the
// command of a shell call as Claude's Bash dialog says it, else the
// dialog's title, else Gemini's message.
func dialog(b []byte, ev *hook.Event) string {
	var n struct {
		Details struct {
			Type    string `json:"type"`
			Title   string `json:"title"`
			Command string `json:"command"`
		} `json:"details"`
	}
	_ = json.Unmarshal(b, &n) // the event itself decoded: the details are optional
	d := n.Details
	switch {
	case d.Type == "exec" && d.Command != "":
		input, _ := json.Marshal(map[string]string{"command": d.Command})
		return hook.DescribeTool("Shell", input, ev.CWD)
	case d.Title != "":
		return hook.WaitingFor(d.Title)
	}
	return hook.WaitingFor(ev.Message)
}
