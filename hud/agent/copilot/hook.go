package copilot

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
)

// hookSource is how hud-hook reads Copilot CLI. Its hooks
// (~/.copilot/hooks/*.json, "version": 1) send camelCase payloads
// without the event's name, so the name comes from the command line:
// `hud-hook copilot <event>`.
//
//   - sessionStart waits for the first prompt; until then only Copilot's
//     session directory says the session exists.
//   - permissionRequest fires for every tool call, also the ones the
//     person allowed for good, so it is not wired: the open dialog is
//     notification(permission_prompt), and a question (the ask_user tool)
//     notification(elicitation_dialog).
//   - agentStop ends a turn. A denial or an Esc fires nothing, and a
//     model error fires errorOccurred once per retry, every one
//     "recoverable", and no agentStop: the readers take the end of those
//     turns from Copilot's events.jsonl (Log). An error Copilot says
//     it cannot recover from ends the turn here.
var hookSource = hook.Source{
	Name:      Name,
	Process:   "Copilot CLI",
	Decode:    decode,
	IsProcess: func(paths.Layout) func(proc.Process) bool { return isCopilot },
}

// isCopilot: the npm package's node launcher starts the native binary,
// which runs the hooks and names its main thread "MainThread", so the
// kernel's comm does not name it: its argv[0] does.
func isCopilot(p proc.Process) bool {
	if isCopilotLauncher(p) {
		return true
	}
	args, err := proc.Cmdline(p.PID)
	return err == nil && len(args) > 0 && filepath.Base(args[0]) == "copilot"
}

var isCopilotLauncher = proc.IsExecutable("copilot")

// Copilot's hook events, as its hooks file names them.
const (
	sessionStart       = "sessionStart"
	sessionEnd         = "sessionEnd"
	userPrompt         = "userPromptSubmitted"
	preToolUse         = "preToolUse"
	postToolUse        = "postToolUse"
	postToolUseFailure = "postToolUseFailure"
	notification       = "notification"
	agentStop          = "agentStop"
	errorOccurred      = "errorOccurred"
	askUser            = "ask_user"
)

// payload is the part of a Copilot hook payload hud reads.
type payload struct {
	SessionID        string          `json:"sessionId"`
	CWD              string          `json:"cwd"`
	Source           string          `json:"source"`
	Reason           string          `json:"reason"`
	Prompt           string          `json:"prompt"`
	ToolName         string          `json:"toolName"`
	ToolArgs         json.RawMessage `json:"toolArgs"`
	TranscriptPath   string          `json:"transcriptPath"`
	Message          string          `json:"message"`
	NotificationType string          `json:"notification_type"`
	Recoverable      *bool           `json:"recoverable"`
	Error            struct {
		Message string `json:"message"`
	} `json:"error"`
}

func decode(event string, b []byte) (*hook.Event, error) {
	if event == "" {
		return nil, errors.New("a Copilot payload does not name its event: the hook command must (hud-hook copilot <event>)")
	}
	var p payload
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("copilot %s payload: %w", event, err)
	}
	if err := store.CheckSessionID(p.SessionID); err != nil {
		return nil, fmt.Errorf("copilot %s payload: %w", event, err)
	}
	ev := &hook.Event{
		SessionID:      p.SessionID,
		CWD:            p.CWD,
		TranscriptPath: p.TranscriptPath,
		Reason:         p.Reason,
		Prompt:         p.Prompt,
		ToolName:       p.ToolName,
		ToolInput:      p.ToolArgs,
		Message:        p.Message,
	}
	if ev.ToolName == askUser {
		// Its question is in message: as Claude's AskUserQuestion input,
		// the dialog reads the same and every event about the call names
		// it alike.
		ev.ToolName = answer.AskUserQuestion
		ev.ToolInput = question(p.ToolArgs)
	}
	switch event {
	case sessionStart:
		ev.HookEventName = hook.EventSessionStart
		if p.Source != hook.SourceResume {
			ev.Source = "startup" // "new"
		} else {
			ev.Source = hook.SourceResume
		}
	case sessionEnd:
		ev.HookEventName = hook.EventSessionEnd
	case userPrompt:
		ev.HookEventName = hook.EventUserPromptSubmit
	case preToolUse:
		ev.HookEventName = hook.EventPreToolUse
		if ev.ToolName == answer.AskUserQuestion {
			ev.HookEventName = hook.EventPermissionRequest // the question is up at once
		}
	case postToolUse:
		ev.HookEventName = hook.EventPostToolUse
	case postToolUseFailure:
		ev.HookEventName = hook.EventPostToolUseFailure
	case notification:
		ev.HookEventName = hook.EventNotification
		ev.NotificationType = p.NotificationType
	case agentStop:
		ev.HookEventName = hook.EventStop
	case errorOccurred:
		if p.Recoverable == nil || *p.Recoverable {
			return nil, nil // a retry follows, or events.jsonl ends the turn
		}
		ev.HookEventName = hook.EventStopFailure
		ev.Error, _ = json.Marshal(p.Error.Message)
	default:
		return nil, nil // permissionRequest (see above), subagentStop, preCompact, …
	}
	return ev, nil
}

// question turns ask_user's arguments ({"message": …}) into
// AskUserQuestion's input.
func question(args json.RawMessage) json.RawMessage {
	var in struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(args, &in) // no message: a question without text
	out, _ := json.Marshal(map[string]any{"questions": []map[string]string{{"question": in.Message}}})
	return out
}
