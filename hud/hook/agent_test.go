package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/resolver"
)

func TestLookupAgent(t *testing.T) {
	cases := []struct {
		args      []string
		name, ev  string
		wantError bool
	}{
		{args: nil, name: ""},
		{args: []string{"codex"}, name: "codex"},
		{args: []string{"codex", "Stop"}, name: "codex", ev: "Stop"},
		{args: []string{"nosuchagent"}, wantError: true},
	}
	for _, c := range cases {
		a, ev, err := lookupAgent(c.args)
		if c.wantError {
			if err == nil || !strings.Contains(err.Error(), "codex") {
				t.Errorf("lookupAgent(%q) = %v, want an error naming the known agents", c.args, err)
			}
			continue
		}
		if err != nil || a.name != c.name || ev != c.ev {
			t.Errorf("lookupAgent(%q) = %q, %q, %v; want %q, %q", c.args, a.name, ev, err, c.name, c.ev)
		}
	}
}

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
		{"SessionStart", `,"source":"startup"`, EventSessionStart},
		{"UserPromptSubmit", `,"prompt":"hello"`, EventUserPromptSubmit},
		{"PreToolUse", `,"tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_use_id":"call_5"`, EventPreToolUse},
		{"PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"echo hi"}`, EventPermissionRequest},
		{"PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"echo hi"},"tool_response":"","tool_use_id":"call_5"`, EventPostToolUse},
		{"Stop", `,"stop_hook_active":false,"last_assistant_message":"ok"`, EventStop},
		{"Interrupt", ``, EventStop},
		{"PreModelRequest", ``, ""},
		{"SessionEnd", `,"reason":"other"`, EventSessionEnd},
	}
	for _, c := range cases {
		ev, err := codexAgent.decode("", []byte(codexPayload(c.event, c.extra)))
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
	if _, err := codexAgent.decode("", []byte(`{"hook_event_name":"Stop"}`)); err == nil {
		t.Error("a payload without a session id decoded")
	}
}

// TestCodexTurns runs Codex's recorded turns through the hook: the record
// carries agent "codex", and Interrupt (Esc, a denial) ends the turn as
// Stop does.
func TestCodexTurns(t *testing.T) {
	steps := []struct {
		event, extra string
		want         resolver.State
		waitingFor   string
	}{
		{"SessionStart", `,"source":"startup"`, resolver.StateReady, ""},
		{"UserPromptSubmit", `,"prompt":"run: rm f.txt"`, resolver.StateWorking, ""},
		{"PreToolUse", `,"tool_name":"Bash","tool_input":{"command":"rm f.txt"},"tool_use_id":"call_5"`, resolver.StateWorking, ""},
		{"PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"rm f.txt","description":"May I run rm f.txt?"}`, resolver.StateWaiting, "Bash: rm f.txt"},
		{"PreModelRequest", ``, resolver.StateWaiting, "Bash: rm f.txt"},
		// Approved: the call runs, and its PostToolUse ends the wait.
		{"PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"rm f.txt"},"tool_response":"","tool_use_id":"call_5"`, resolver.StateWorking, ""},
		{"Stop", `,"stop_hook_active":false`, resolver.StateReady, ""},
		// A question (Plan mode): PreToolUse opens it, no PermissionRequest;
		// PostToolUse is the answer.
		{"UserPromptSubmit", `,"prompt":"question: Which colour?"`, resolver.StateWorking, ""},
		{"PreToolUse", `,"tool_name":"request_user_input","tool_input":{"questions":[{"header":"Choice","id":"choice","options":[{"description":"The warm one.","label":"Red (Recommended)"},{"description":"The cool one.","label":"Blue"}],"question":"Which colour?"}]},"tool_use_id":"call_9"`,
			resolver.StateWaiting, "Choice: Which colour?"},
		{"PostToolUse", `,"tool_name":"request_user_input","tool_input":{"questions":[{"header":"Choice","id":"choice","options":[{"description":"The warm one.","label":"Red (Recommended)"},{"description":"The cool one.","label":"Blue"}],"question":"Which colour?"}]},"tool_response":"{}","tool_use_id":"call_9"`,
			resolver.StateWorking, ""},
		{"Stop", `,"stop_hook_active":false`, resolver.StateReady, ""},
		// Denied (or Esc): Interrupt, no Stop.
		{"UserPromptSubmit", `,"prompt":"ask: touch b.txt"`, resolver.StateWorking, ""},
		{"PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"touch b.txt","description":"May I?"}`, resolver.StateWaiting, "Bash: touch b.txt"},
		{"Interrupt", ``, resolver.StateReady, ""},
	}
	home := t.TempDir()
	for _, s := range steps {
		var stderr bytes.Buffer
		env := testEnv(home, codexPayload(s.event, s.extra), &stderr)
		if code := Main([]string{"codex"}, env); code != 0 {
			t.Fatalf("%s: exit %d (%s)", s.event, code, stderr.String())
		}
		st, err := resolver.LoadStore(resolver.Layout{Home: home}.StorePath())
		if err != nil {
			t.Fatal(err)
		}
		r := st.Sessions["01a20905-5048-7172-a4bf-b0ea3d22d978"]
		if r == nil {
			t.Fatalf("%s: no record", s.event)
		}
		if r.Agent != resolver.AgentCodex || r.State != s.want || r.WaitingFor != s.waitingFor {
			t.Errorf("after %s: agent %q state %s waiting for %q; want codex %s %q", s.event, r.Agent, r.State, r.WaitingFor, s.want, s.waitingFor)
		}
	}
}

// TestUnknownAgent: a payload for an agent this version does not know is
// logged and dropped, never read as Claude's.
func TestUnknownAgent(t *testing.T) {
	home := t.TempDir()
	var stderr bytes.Buffer
	if code := Main([]string{"nosuchagent"}, testEnv(home, codexPayload("UserPromptSubmit", ""), &stderr)); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(resolver.Layout{Home: home}.StorePath()); !os.IsNotExist(err) {
		t.Errorf("the store was written for an unknown agent (%v)", err)
	}
	b, _ := os.ReadFile(filepath.Join(home, ".claude", "hud-hook-debug.log"))
	if !strings.Contains(string(b), `unknown agent "nosuchagent"`) {
		t.Errorf("debug log does not say why:\n%s", b)
	}
}
