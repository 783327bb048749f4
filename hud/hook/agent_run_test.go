package hook_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/agent/codex"
	"github.com/capacitor-hud/hud/hud/agent/opencode"
	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// agentEnv is an in-process run's Env with the registry's agents.
func agentEnv(home, stdin string, stderr *bytes.Buffer) hook.Env {
	env := hook.TestEnv(home, stdin, stderr)
	env.Sources = registry.Sources()
	return env
}

// codexPayload is a Codex CLI 0.169.0 payload as recorded, with the event
// name and extra fields given.
func codexPayload(event, extra string) string {
	return `{"session_id":"01a20905-5048-7172-a4bf-b0ea3d22d978","turn_id":"01a20905-606b-77b3-b2f4-475871a07596",` +
		`"transcript_path":"/home/u/.codex/sessions/2026/11/23/rollout-2026-11-23T15-27-52-01a20905-5048-7172-a4bf-b0ea3d22d978.jsonl",` +
		`"cwd":"/home/u/api","hook_event_name":"` + event + `","model":"gpt-5-codex","permission_mode":"default"` + extra + `}`
}

// TestCodexTurns runs Codex's recorded turns through the hook: the record
// carries agent "codex", and Interrupt (Esc, a denial) ends the turn as
// Stop does.
func TestCodexTurns(t *testing.T) {
	steps := []struct {
		event, extra string
		want         store.State
		waitingFor   string
	}{
		{"SessionStart", `,"source":"startup"`, store.StateReady, ""},
		{"UserPromptSubmit", `,"prompt":"run: rm f.txt"`, store.StateWorking, ""},
		{"PreToolUse", `,"tool_name":"Bash","tool_input":{"command":"rm f.txt"},"tool_use_id":"call_5"`, store.StateWorking, ""},
		{"PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"rm f.txt","description":"May I run rm f.txt?"}`, store.StateWaiting, "Bash: rm f.txt"},
		{"PreModelRequest", ``, store.StateWaiting, "Bash: rm f.txt"},
		// Approved: the call runs, and its PostToolUse ends the wait.
		{"PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"rm f.txt"},"tool_response":"","tool_use_id":"call_5"`, store.StateWorking, ""},
		{"Stop", `,"stop_hook_active":false`, store.StateReady, ""},
		// A question (Plan mode): PreToolUse opens it, no PermissionRequest;
		// PostToolUse is the answer.
		{"UserPromptSubmit", `,"prompt":"question: Which colour?"`, store.StateWorking, ""},
		{"PreToolUse", `,"tool_name":"request_user_input","tool_input":{"questions":[{"header":"Choice","id":"choice","options":[{"description":"The warm one.","label":"Red (Recommended)"},{"description":"The cool one.","label":"Blue"}],"question":"Which colour?"}]},"tool_use_id":"call_9"`,
			store.StateWaiting, "Choice: Which colour?"},
		{"PostToolUse", `,"tool_name":"request_user_input","tool_input":{"questions":[{"header":"Choice","id":"choice","options":[{"description":"The warm one.","label":"Red (Recommended)"},{"description":"The cool one.","label":"Blue"}],"question":"Which colour?"}]},"tool_response":"{}","tool_use_id":"call_9"`,
			store.StateWorking, ""},
		{"Stop", `,"stop_hook_active":false`, store.StateReady, ""},
		// Denied (or Esc): Interrupt, no Stop.
		{"UserPromptSubmit", `,"prompt":"ask: touch b.txt"`, store.StateWorking, ""},
		{"PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"touch b.txt","description":"May I?"}`, store.StateWaiting, "Bash: touch b.txt"},
		{"Interrupt", ``, store.StateReady, ""},
	}
	home := t.TempDir()
	for _, s := range steps {
		var stderr bytes.Buffer
		env := agentEnv(home, codexPayload(s.event, s.extra), &stderr)
		if code := hook.Main([]string{"codex"}, env); code != 0 {
			t.Fatalf("%s: exit %d (%s)", s.event, code, stderr.String())
		}
		st, err := store.Load(paths.Layout{Home: home}.StorePath())
		if err != nil {
			t.Fatal(err)
		}
		r := st.Sessions["01a20905-5048-7172-a4bf-b0ea3d22d978"]
		if r == nil {
			t.Fatalf("%s: no record", s.event)
		}
		if r.Agent != codex.Name || r.State != s.want || r.WaitingFor != s.waitingFor {
			t.Errorf("after %s: agent %q state %s waiting for %q; want codex %s %q", s.event, r.Agent, r.State, r.WaitingFor, s.want, s.waitingFor)
		}
	}
}

// TestUnknownAgent: a payload for an agent this version does not know is
// logged and dropped, never read as Claude's.
func TestUnknownAgent(t *testing.T) {
	home := t.TempDir()
	var stderr bytes.Buffer
	if code := hook.Main([]string{"nosuchagent"}, agentEnv(home, codexPayload("UserPromptSubmit", ""), &stderr)); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(paths.Layout{Home: home}.StorePath()); !os.IsNotExist(err) {
		t.Errorf("the st was written for an unknown agent (%v)", err)
	}
	b, _ := os.ReadFile(filepath.Join(home, ".claude", "hud-hook-debug.log"))
	if !strings.Contains(string(b), `unknown agent "nosuchagent"`) {
		t.Errorf("debug log does not say why:\n%s", b)
	}
}

// recorded reads one recorded payload of an agent.
func recorded(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../testdata/hook", dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAgentDialogs runs recorded turns through the hook binary's Main: the
// state and what a waiting session waits for after each step, and what
// the hook printed (Gemini parses every hook's stdout as JSON and gets
// "{}", whatever the payload; Copilot gets nothing).
func TestAgentDialogs(t *testing.T) {
	type step struct {
		args       []string
		file       string // a recorded payload, or the payload itself
		state      store.State
		waitingFor string
	}
	gm := func(event, file string, state store.State, waitingFor string) step {
		return step{[]string{"gemini", event}, file, state, waitingFor}
	}
	cp := func(event, file string, state store.State, waitingFor string) step {
		return step{[]string{"copilot", event}, file, state, waitingFor}
	}
	cases := []struct {
		name, dir, session, stdout string
		steps                      []step
	}{
		{"gemini permission", "gemini-0.61.0", "fab20e7f-8708-4034-9d40-31457422420a", "{}", []step{
			gm("BeforeAgent", "010-BeforeAgent.json", store.StateWorking, ""),
			gm("PreCompress", "011-PreCompress.json", store.StateWorking, ""),
			gm("BeforeTool", "015-BeforeTool.json", store.StateWorking, ""),
			gm("Notification", "016-Notification-exec.json", store.StateWaiting, "Shell: touch approved.txt"),
			gm("AfterTool", "017-AfterTool.json", store.StateWorking, ""),
			gm("AfterAgent", "023-AfterAgent.json", store.StateReady, ""),
		}},
		{"gemini question", "gemini-0.61.0", "fab20e7f-8708-4034-9d40-31457422420a", "{}", []step{
			gm("BeforeAgent", "051-BeforeAgent.json", store.StateWorking, ""),
			gm("BeforeTool", "056-BeforeTool.json", store.StateWaiting, "Question: Which colour"),
			gm("Notification", "057-Notification-ask_user.json", store.StateWaiting, "Question: Which colour"),
			gm("AfterTool", "058-AfterTool.json", store.StateWorking, ""),
			gm("AfterAgent", "064-AfterAgent.json", store.StateReady, ""),
			gm("SessionEnd", "070-SessionEnd-exit.json", "", ""),
			gm("SessionEnd", "071-SessionEnd-exit.json", "", ""),
		}},
		{"gemini bad input still answers {}", "gemini-0.61.0", "", "{}", []step{
			gm("BeforeAgent", "{not json", "", ""),
		}},
		{"copilot permission", "copilot-1.0.102", "06fc3013-484c-4fe7-b048-5ed1ec7fdadc", "", []step{
			cp("userPromptSubmitted", "004-userPromptSubmitted.json", store.StateWorking, ""),
			cp("preToolUse", "005-preToolUse.json", store.StateWorking, ""),
			cp("permissionRequest", "006-permissionRequest.json", store.StateWorking, ""),
			cp("notification", "007-notification-permission_prompt.json", store.StateWaiting, "Run command: touch approved.txt"),
			cp("postToolUse", "008-postToolUse.json", store.StateWorking, ""),
			cp("agentStop", "009-agentStop.json", store.StateReady, ""),
		}},
		{"copilot question", "copilot-1.0.102", "06fc3013-484c-4fe7-b048-5ed1ec7fdadc", "", []step{
			cp("userPromptSubmitted", "015-userPromptSubmitted.json", store.StateWorking, ""),
			cp("preToolUse", "016-preToolUse.json", store.StateWaiting, "stand-in"),
			cp("notification", "017-notification-elicitation_dialog.json", store.StateWaiting, "stand-in"),
			cp("postToolUse", "018-postToolUse.json", store.StateWorking, ""),
			cp("errorOccurred", "021-errorOccurred.json", store.StateWorking, ""),
			cp("agentStop", "019-agentStop.json", store.StateReady, ""),
			cp("sessionEnd", "029-sessionEnd-user_exit.json", "", ""),
		}},
		{"copilot without the event name", "copilot-1.0.102", "06fc3013-484c-4fe7-b048-5ed1ec7fdadc", "", []step{
			{[]string{"copilot"}, "002-userPromptSubmitted.json", "", ""},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			for _, s := range c.steps {
				payload := s.file
				if strings.HasSuffix(s.file, ".json") {
					payload = recorded(t, c.dir, s.file)
				}
				var stdout, stderr bytes.Buffer
				env := agentEnv(home, payload, &stderr)
				env.Stdout = &stdout
				if code := hook.Main(s.args, env); code != 0 {
					t.Fatalf("%s: exit %d (%s)", s.file, code, stderr.String())
				}
				if stdout.String() != c.stdout {
					t.Errorf("%s: stdout %q, want %q", s.file, stdout.String(), c.stdout)
				}
				st, err := store.Load(paths.Layout{Home: home}.StorePath())
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				var r *store.Record
				if st != nil {
					r = st.Sessions[c.session]
				}
				switch {
				case s.state == "" && r != nil:
					t.Errorf("%s: a record in state %s, want none", s.file, r.State)
				case s.state == "":
				case r == nil:
					t.Errorf("%s: no record, want %s", s.file, s.state)
				case r.State != s.state || r.WaitingFor != s.waitingFor || r.Agent != s.args[0]:
					t.Errorf("%s: agent %q %s waiting for %q; want %s %s %q", s.file, r.Agent, r.State, r.WaitingFor, s.args[0], s.state, s.waitingFor)
				}
			}
		})
	}
}

// TestOpencodeTurns runs opencode 1.18.33's events (as its bus sent them,
// with what hud's plugin adds) through the hook, in the order a person's
// steps fire them, and checks the record after each.
func TestOpencodeTurns(t *testing.T) {
	const sid = `"sessionID":"ses_df6d7c3c1ffeqnH67O5JZxgVcj","directory":"/home/u/api"`
	const ask = `"id":"per_1","sessionID":"ses_df6d7c3c1ffeqnH67O5JZxgVcj","permission":"bash","patterns":["touch a.txt"],"metadata":{"command":"touch a.txt"},"always":["touch *"]`
	const question = `"id":"que_1","sessionID":"ses_df6d7c3c1ffeqnH67O5JZxgVcj","questions":[{"question":"Which colour?","header":"Choice","options":[{"label":"Red","description":"warm"}]}]`
	steps := []struct {
		event, payload string
		want           store.State
		waitingFor     string
	}{
		{"session.created", `{` + sid + `,"info":{"id":"ses_df6d7c3c1ffeqnH67O5JZxgVcj","directory":"/home/u/api"}}`, store.StateReady, ""},
		{"chat.message", `{` + sid + `,"prompt":"hello"}`, store.StateWorking, ""},
		{"session.status", `{` + sid + `,"status":{"type":"busy"}}`, store.StateWorking, ""},
		{"session.status", `{` + sid + `,"status":{"type":"idle"}}`, store.StateReady, ""},
		{"session.idle", `{` + sid + `}`, store.StateReady, ""},
		// A permission approved: busy while the dialog is up keeps it up.
		{"chat.message", `{` + sid + `,"prompt":"TOOL:touch a.txt"}`, store.StateWorking, ""},
		{"permission.asked", `{` + ask + `,"directory":"/home/u/api"}`, store.StateWaiting, "Bash: touch a.txt"},
		{"session.status", `{` + sid + `,"status":{"type":"busy"}}`, store.StateWaiting, "Bash: touch a.txt"},
		{"permission.replied", `{` + sid + `,"requestID":"per_1","reply":"once","asked":{` + ask + `}}`, store.StateWorking, ""},
		{"session.idle", `{` + sid + `}`, store.StateReady, ""},
		// Rejected.
		{"chat.message", `{` + sid + `,"prompt":"TOOL:touch b.txt"}`, store.StateWorking, ""},
		{"permission.asked", `{` + ask + `,"directory":"/home/u/api"}`, store.StateWaiting, "Bash: touch a.txt"},
		{"permission.replied", `{` + sid + `,"requestID":"per_1","reply":"reject","asked":{` + ask + `}}`, store.StateReady, ""},
		// Esc: the abort's error says nothing, its idle ends the turn.
		{"chat.message", `{` + sid + `,"prompt":"SLOW:20"}`, store.StateWorking, ""},
		{"session.error", `{` + sid + `,"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}}`, store.StateWorking, ""},
		{"session.idle", `{` + sid + `}`, store.StateReady, ""},
		// The API fails: retries keep it working, the error ends it.
		{"chat.message", `{` + sid + `,"prompt":"ERROR:500"}`, store.StateWorking, ""},
		{"session.status", `{` + sid + `,"status":{"type":"retry","attempt":1,"message":"the stand-in answers 500 as asked"}}`, store.StateWorking, ""},
		{"session.error", `{` + sid + `,"error":{"name":"APIError","data":{"message":"the stand-in answers 500 as asked"}}}`, store.StateReady, ""},
		// A question.
		{"chat.message", `{` + sid + `,"prompt":"ASK:Which colour?"}`, store.StateWorking, ""},
		{"question.asked", `{` + question + `,"directory":"/home/u/api"}`, store.StateWaiting, "Choice: Which colour?"},
		{"question.replied", `{` + sid + `,"requestID":"que_1","answers":[["Red"]],"asked":{` + question + `}}`, store.StateWorking, ""},
		{"session.idle", `{` + sid + `}`, store.StateReady, ""},
		{"session.deleted", `{` + sid + `}`, "", ""},
	}
	home := t.TempDir()
	for i, s := range steps {
		var stderr bytes.Buffer
		if code := hook.Main([]string{"opencode", s.event}, agentEnv(home, s.payload, &stderr)); code != 0 {
			t.Fatalf("step %d %s: exit %d", i, s.event, code)
		}
		st, err := store.Load(paths.Layout{Home: home}.StorePath())
		if err != nil {
			t.Fatal(err)
		}
		r := st.Sessions["ses_df6d7c3c1ffeqnH67O5JZxgVcj"]
		switch {
		case s.want == "":
			if r != nil {
				t.Errorf("step %d %s: record %s left", i, s.event, r.State)
			}
		case r == nil:
			t.Fatalf("step %d %s: no record", i, s.event)
		case r.Agent != opencode.Name || r.State != s.want || r.WaitingFor != s.waitingFor || r.CWD != "/home/u/api":
			t.Errorf("step %d %s: agent %q state %s waiting for %q cwd %q; want %s %q", i, s.event, r.Agent, r.State, r.WaitingFor, r.CWD, s.want, s.waitingFor)
		}
	}
}

// TestAgentRecordedReplay replays every recording of another agent's real
// CLI (scripts/agents with HUD_AGENTS_RECORD, filed under
// testdata/hook/<agent>-<release>/, with its README) through that agent's
// decoder and the one state machine, against its replay.txt, as
// TestRecordedReplay does Claude Code's. A recording is a directory of
// NN-Event.json payloads: the release's directory itself, or one
// directory per scenario in it. A new one needs no change here.
func TestAgentRecordedReplay(t *testing.T) {
	found := 0
	for _, a := range registry.All {
		if a.Name() == resolver.AgentClaude {
			continue // TestRecordedReplay's
		}
		releases, err := filepath.Glob("../../testdata/hook/" + a.Name() + "-*")
		if err != nil {
			t.Fatal(err)
		}
		for _, release := range releases {
			scenarios, _ := filepath.Glob(filepath.Join(release, "*"))
			for _, dir := range append([]string{release}, scenarios...) {
				if !holdsPayloads(dir) {
					continue
				}
				found++
				name, _ := filepath.Rel("../../testdata/hook", dir)
				t.Run(filepath.ToSlash(name), func(t *testing.T) { hook.ReplayRecording(t, dir, a.Hook()) })
			}
		}
	}
	if found == 0 {
		t.Fatal("no agent recordings in testdata/hook")
	}
}

// holdsPayloads reports whether dir is a directory of recorded payloads.
func holdsPayloads(dir string) bool {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return false
	}
	_, err := hook.RecordedPayloads(dir)
	return err == nil
}
