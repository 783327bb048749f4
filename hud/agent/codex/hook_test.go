package codex

import (
	"testing"

	"github.com/capacitor-hud/hud/hud/hook"
)

// codexPayload is a Codex CLI 0.169.0 payload as recorded, with the event
// name and extra fields given.
func codexPayload(event, extra string) string {
	return `{"session_id":"01a20905-5048-7172-a4bf-b0ea3d22d978","turn_id":"01a20905-606b-77b3-b2f4-475871a07596",` +
		`"transcript_path":"/home/u/.codex/sessions/2026/11/23/rollout-2026-11-23T15-27-52-01a20905-5048-7172-a4bf-b0ea3d22d978.jsonl",` +
		`"cwd":"/home/u/api","hook_event_name":"` + event + `","model":"gpt-5-codex","permission_mode":"default"` + extra + `}`
}

func TestCodexDecode(t *testing.T) {
	cases := []struct {
		event, extra string
		want         string // the event the state machine sees, "" for none
	}{
		{"SessionStart", `,"source":"startup"`, hook.EventSessionStart},
		{"UserPromptSubmit", `,"prompt":"hello"`, hook.EventUserPromptSubmit},
		{"PreToolUse", `,"tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_use_id":"call_5"`, hook.EventPreToolUse},
		{"PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"echo hi"}`, hook.EventPermissionRequest},
		{"PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_response":"","tool_use_id":"call_5"`, hook.EventPostToolUse},
		{"Stop", `,"stop_hook_active":false,"last_assistant_message":"ok"`, hook.EventStop},
		{"Interrupt", ``, hook.EventStop},
		{"PreModelRequest", ``, ""},
		{"SessionEnd", `,"reason":"other"`, hook.EventSessionEnd},
	}
	for _, c := range cases {
		ev, err := hookSource.Decode("", []byte(codexPayload(c.event, c.extra)))
		if err != nil {
			t.Errorf("%s: %v", c.event, err)
			continue
		}
		got := ""
		if ev != nil {
			got = ev.HookEventName
		}
		if got != c.want {
			t.Errorf("%s decodes to %q, want %q", c.event, got, c.want)
		}
	}
	if _, err := hookSource.Decode("", []byte(`{"hook_event_name":"Stop"}`)); err == nil {
		t.Error("a payload without a session id decoded")
	}
}
