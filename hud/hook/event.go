package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/capacitor-hud/hud/internal/jsonfields"
	"github.com/capacitor-hud/hud/internal/store"
)

// Event is one hook payload as Claude Code sends it on stdin. Only the
// fields the HUD uses are decoded (fields lists their names); everything
// else is ignored.
type Event struct {
	SessionID      string
	TranscriptPath string
	CWD            string
	HookEventName  string
	PermissionMode string
	PromptID       string
	// AgentID is set when the event fired inside a subagent (compaction
	// runs as one).
	AgentID   string
	AgentType string

	// Source is SessionStart's (startup, resume, clear, compact) or
	// UserPromptSubmit's (user, sdk, system, …: who wrote the prompt).
	Source           string
	Reason           string // SessionEnd
	Trigger          string // Pre/PostCompact
	Prompt           string // UserPromptSubmit
	ToolName         string
	ToolInput        json.RawMessage
	ToolUseID        string
	ToolResponse     json.RawMessage
	Error            json.RawMessage // string (PostToolUseFailure) or object (StopFailure)
	IsInterrupt      bool
	Message          string // Notification
	NotificationType string // Notification
	StopHookActive   bool
	OldCWD           string // CwdChanged
	NewCWD           string // CwdChanged
	// BackgroundTasks is Stop's list of work that runs on after the turn;
	// nil when the client sends none (before 2.1.145).
	BackgroundTasks *[]BackgroundTask
	MCPServerName   string // Elicitation

	// PermissionSuggestions is PermissionRequest's: what "Yes, and don't
	// ask again" would add (kept as sent, for the decision output).
	PermissionSuggestions json.RawMessage

	// Agent is the agent whose hook sent the event ("" for Claude Code);
	// set by the hook from its arguments, never read from the payload.
	Agent string
}

// fields lists the payload's members the HUD reads.
func (ev *Event) fields() []jsonfields.Field {
	return []jsonfields.Field{
		jsonfields.String("session_id", &ev.SessionID),
		jsonfields.String("transcript_path", &ev.TranscriptPath),
		jsonfields.String("cwd", &ev.CWD),
		jsonfields.String("hook_event_name", &ev.HookEventName),
		jsonfields.String("permission_mode", &ev.PermissionMode),
		jsonfields.String("prompt_id", &ev.PromptID),
		jsonfields.String("agent_id", &ev.AgentID),
		jsonfields.String("agent_type", &ev.AgentType),
		jsonfields.String("source", &ev.Source),
		jsonfields.String("reason", &ev.Reason),
		jsonfields.String("trigger", &ev.Trigger),
		jsonfields.String("prompt", &ev.Prompt),
		jsonfields.String("tool_name", &ev.ToolName),
		jsonfields.Raw("tool_input", &ev.ToolInput),
		jsonfields.String("tool_use_id", &ev.ToolUseID),
		jsonfields.Raw("tool_response", &ev.ToolResponse),
		jsonfields.Raw("error", &ev.Error),
		jsonfields.Bool("is_interrupt", &ev.IsInterrupt),
		jsonfields.String("message", &ev.Message),
		jsonfields.String("notification_type", &ev.NotificationType),
		jsonfields.Bool("stop_hook_active", &ev.StopHookActive),
		jsonfields.String("old_cwd", &ev.OldCWD),
		jsonfields.String("new_cwd", &ev.NewCWD),
		jsonfields.Objects("background_tasks", &ev.BackgroundTasks, (*BackgroundTask).fields),
		jsonfields.String("mcp_server_name", &ev.MCPServerName),
		jsonfields.Raw("permission_suggestions", &ev.PermissionSuggestions),
	}
}

// DecodeEvent parses one hook payload. It rejects what cannot be an event
// from Claude Code: anything but a JSON object, a missing or unsafe
// session_id (store.CheckSessionID, the rule every reader of the store
// applies too),
// and a missing hook_event_name. A field of an unexpected type is not fatal:
// a newer Claude Code may change a field the HUD barely uses, and the rest
// of the event is still good. The event's raw fields (ToolInput,
// ToolResponse, Error) are copies: b may change afterwards.
func DecodeEvent(b []byte) (*Event, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, errors.New("decoding event: empty input")
	}
	if b[0] != '{' {
		return nil, errors.New("decoding event: not a JSON object")
	}
	ev := &Event{}
	if err := jsonfields.Decode(b, ev.fields()...); err != nil && !errors.As(err, new(*jsonfields.TypeError)) {
		return nil, fmt.Errorf("decoding event: %w", err)
	}
	if err := store.CheckSessionID(ev.SessionID); err != nil {
		return nil, fmt.Errorf("decoding event: %w", err)
	}
	if ev.HookEventName == "" {
		return nil, errors.New("decoding event: no hook_event_name")
	}
	return ev, nil
}
