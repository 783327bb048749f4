package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/capacitor-hud/hud/resolver"
)

// Event is one hook payload as Claude Code sends it on stdin. Only the
// fields the HUD uses are decoded; everything else is ignored.
type Event struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode"`
	PromptID       string `json:"prompt_id"`
	// AgentID is set when the event fired inside a subagent (compaction
	// runs as one).
	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`

	// Source is SessionStart's (startup, resume, clear, compact) or
	// UserPromptSubmit's (user, sdk, system, …: who wrote the prompt).
	Source           string          `json:"source"`
	Reason           string          `json:"reason"`  // SessionEnd
	Trigger          string          `json:"trigger"` // Pre/PostCompact
	Prompt           string          `json:"prompt"`  // UserPromptSubmit
	ToolName         string          `json:"tool_name"`
	ToolInput        json.RawMessage `json:"tool_input"`
	ToolUseID        string          `json:"tool_use_id"`
	ToolResponse     json.RawMessage `json:"tool_response"`
	Error            json.RawMessage `json:"error"` // string (PostToolUseFailure) or object (StopFailure)
	IsInterrupt      bool            `json:"is_interrupt"`
	Message          string          `json:"message"`           // Notification
	NotificationType string          `json:"notification_type"` // Notification
	StopHookActive   bool            `json:"stop_hook_active"`
	OldCWD           string          `json:"old_cwd"` // CwdChanged
	NewCWD           string          `json:"new_cwd"` // CwdChanged
	// BackgroundTasks is Stop's list of work that runs on after the turn;
	// nil when the client sends none (before 2.1.145).
	BackgroundTasks *[]BackgroundTask `json:"background_tasks"`
	MCPServerName   string            `json:"mcp_server_name"` // Elicitation

	// PermissionSuggestions is PermissionRequest's: what "Yes, and don't
	// ask again" would add (kept as sent, for the decision output).
	PermissionSuggestions json.RawMessage `json:"permission_suggestions"`

	// Agent is the agent whose hook sent the event ("" for Claude Code);
	// set by the hook from its arguments, never read from the payload.
	Agent string `json:"-"`
}

// DecodeEvent parses one hook payload. It rejects what cannot be an event
// from Claude Code: anything but a JSON object, a missing or unsafe
// session_id (resolver.CheckSessionID, the rule every reader of the store
// applies too),
// and a missing hook_event_name. A field of an unexpected type is not fatal:
// a newer Claude Code may change a field the HUD barely uses, and the rest
// of the event is still good. The event's raw fields (ToolInput,
// ToolResponse, Error) may share b's memory rather than copy it (a tool's
// output can be large): b must not change while the event is in use.
func DecodeEvent(b []byte) (*Event, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, errors.New("decoding event: empty input")
	}
	if b[0] != '{' {
		return nil, errors.New("decoding event: not a JSON object")
	}
	ev := &Event{}
	if err := json.Unmarshal(b, ev); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) || typeErr.Field == "" {
			return nil, fmt.Errorf("decoding event: %w", err)
		}
	}
	if err := resolver.CheckSessionID(ev.SessionID); err != nil {
		return nil, fmt.Errorf("decoding event: %w", err)
	}
	if ev.HookEventName == "" {
		return nil, errors.New("decoding event: no hook_event_name")
	}
	return ev, nil
}
