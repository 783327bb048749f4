package hook

import (
	"encoding/json"

	"github.com/capacitor-hud/hud/internal/jsonscan"
)

// eventFields are the keys of Event (a test holds the list to its json
// tags): a key that matches one of them only ignoring case is one that
// encoding/json would still decode into it, so it is left to encoding/json.
var eventFields = []string{
	"session_id", "transcript_path", "cwd", "hook_event_name", "permission_mode",
	"prompt_id", "agent_id", "agent_type", "source", "reason", "trigger", "prompt",
	"tool_name", "tool_input", "tool_use_id", "tool_response", "error", "is_interrupt",
	"message", "notification_type", "stop_hook_active", "old_cwd", "new_cwd",
	"background_tasks", "mcp_server_name", "permission_suggestions",
}

// decodeEventFast decodes an event by hand, as json.Unmarshal would, or
// reports false for anything it leaves to encoding/json (see jsonscan):
// every event runs it in a fresh process, where encoding/json would first
// build its reflection caches for Event. Unknown keys are skipped, as
// encoding/json skips them.
func decodeEventFast(b []byte) (*Event, bool) {
	s := jsonscan.New(b)
	ev := &Event{}
	str := s.String
	raw := func(v *json.RawMessage) error {
		b, err := s.Value()
		*v = b
		return err
	}
	tasksSeen := false
	err := s.Object(func(key string) error {
		switch key {
		case "session_id":
			return str(&ev.SessionID)
		case "transcript_path":
			return str(&ev.TranscriptPath)
		case "cwd":
			return str(&ev.CWD)
		case "hook_event_name":
			return str(&ev.HookEventName)
		case "permission_mode":
			return str(&ev.PermissionMode)
		case "prompt_id":
			return str(&ev.PromptID)
		case "agent_id":
			return str(&ev.AgentID)
		case "agent_type":
			return str(&ev.AgentType)
		case "source":
			return str(&ev.Source)
		case "reason":
			return str(&ev.Reason)
		case "trigger":
			return str(&ev.Trigger)
		case "prompt":
			return str(&ev.Prompt)
		case "tool_name":
			return str(&ev.ToolName)
		case "tool_input":
			return raw(&ev.ToolInput)
		case "tool_use_id":
			return str(&ev.ToolUseID)
		case "tool_response":
			return raw(&ev.ToolResponse)
		case "error":
			return raw(&ev.Error)
		case "is_interrupt":
			return s.Bool(&ev.IsInterrupt)
		case "message":
			return str(&ev.Message)
		case "notification_type":
			return str(&ev.NotificationType)
		case "stop_hook_active":
			return s.Bool(&ev.StopHookActive)
		case "old_cwd":
			return str(&ev.OldCWD)
		case "new_cwd":
			return str(&ev.NewCWD)
		case "background_tasks":
			if tasksSeen {
				// encoding/json decodes a repeated list into the one it
				// made for the first: its business.
				return jsonscan.ErrFallback
			}
			tasksSeen = true
			return backgroundTasks(s, &ev.BackgroundTasks)
		case "mcp_server_name":
			return str(&ev.MCPServerName)
		case "permission_suggestions":
			return raw(&ev.PermissionSuggestions)
		}
		return s.Unknown(key, eventFields)
	})
	if err != nil || !s.End() {
		return nil, false
	}
	return ev, true
}

// backgroundTaskFields are BackgroundTask's keys.
var backgroundTaskFields = []string{"id", "type", "status"}

// backgroundTasks reads Stop's background_tasks: null, or a list.
func backgroundTasks(s *jsonscan.Scanner, v **[]BackgroundTask) error {
	if s.Null() {
		*v = nil
		return nil
	}
	tasks := []BackgroundTask{}
	err := s.Array(func() error {
		var t BackgroundTask
		err := s.Object(func(key string) error {
			switch key {
			case "id":
				return s.String(&t.ID)
			case "type":
				return s.String(&t.Type)
			case "status":
				return s.String(&t.Status)
			}
			return s.Unknown(key, backgroundTaskFields)
		})
		tasks = append(tasks, t)
		return err
	})
	*v = &tasks
	return err
}
