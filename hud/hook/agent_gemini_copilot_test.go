package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

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
		state      resolver.State
		waitingFor string
	}
	gm := func(event, file string, state resolver.State, waitingFor string) step {
		return step{[]string{"gemini", event}, file, state, waitingFor}
	}
	cp := func(event, file string, state resolver.State, waitingFor string) step {
		return step{[]string{"copilot", event}, file, state, waitingFor}
	}
	cases := []struct {
		name, dir, session, stdout string
		steps                      []step
	}{
		{"gemini permission", "gemini-0.61.0", "fab20e7f-8708-4034-9d40-31457422420a", "{}", []step{
			gm("BeforeAgent", "010-BeforeAgent.json", resolver.StateWorking, ""),
			gm("PreCompress", "011-PreCompress.json", resolver.StateWorking, ""),
			gm("BeforeTool", "015-BeforeTool.json", resolver.StateWorking, ""),
			gm("Notification", "016-Notification-exec.json", resolver.StateWaiting, "Shell: touch approved.txt"),
			gm("AfterTool", "017-AfterTool.json", resolver.StateWorking, ""),
			gm("AfterAgent", "023-AfterAgent.json", resolver.StateReady, ""),
		}},
		{"gemini question", "gemini-0.61.0", "fab20e7f-8708-4034-9d40-31457422420a", "{}", []step{
			gm("BeforeAgent", "051-BeforeAgent.json", resolver.StateWorking, ""),
			gm("BeforeTool", "056-BeforeTool.json", resolver.StateWaiting, "Question: Which colour"),
			gm("Notification", "057-Notification-ask_user.json", resolver.StateWaiting, "Question: Which colour"),
			gm("AfterTool", "058-AfterTool.json", resolver.StateWorking, ""),
			gm("AfterAgent", "064-AfterAgent.json", resolver.StateReady, ""),
			gm("SessionEnd", "070-SessionEnd-exit.json", "", ""),
			gm("SessionEnd", "071-SessionEnd-exit.json", "", ""),
		}},
		{"gemini bad input still answers {}", "gemini-0.61.0", "", "{}", []step{
			gm("BeforeAgent", "{not json", "", ""),
		}},
		{"copilot permission", "copilot-1.0.102", "06fc3013-484c-4fe7-b048-5ed1ec7fdadc", "", []step{
			cp("userPromptSubmitted", "004-userPromptSubmitted.json", resolver.StateWorking, ""),
			cp("preToolUse", "005-preToolUse.json", resolver.StateWorking, ""),
			cp("permissionRequest", "006-permissionRequest.json", resolver.StateWorking, ""),
			cp("notification", "007-notification-permission_prompt.json", resolver.StateWaiting, "Run command: touch approved.txt"),
			cp("postToolUse", "008-postToolUse.json", resolver.StateWorking, ""),
			cp("agentStop", "009-agentStop.json", resolver.StateReady, ""),
		}},
		{"copilot question", "copilot-1.0.102", "06fc3013-484c-4fe7-b048-5ed1ec7fdadc", "", []step{
			cp("userPromptSubmitted", "015-userPromptSubmitted.json", resolver.StateWorking, ""),
			cp("preToolUse", "016-preToolUse.json", resolver.StateWaiting, "stand-in"),
			cp("notification", "017-notification-elicitation_dialog.json", resolver.StateWaiting, "stand-in"),
			cp("postToolUse", "018-postToolUse.json", resolver.StateWorking, ""),
			cp("errorOccurred", "021-errorOccurred.json", resolver.StateWorking, ""),
			cp("agentStop", "019-agentStop.json", resolver.StateReady, ""),
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
				env := testEnv(home, payload, &stderr)
				env.Stdout = &stdout
				if code := Main(s.args, env); code != 0 {
					t.Fatalf("%s: exit %d (%s)", s.file, code, stderr.String())
				}
				if stdout.String() != c.stdout {
					t.Errorf("%s: stdout %q, want %q", s.file, stdout.String(), c.stdout)
				}
				st, err := resolver.LoadStore(resolver.Layout{Home: home}.StorePath())
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				var r *resolver.Record
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

// TestPromptRestartsWorkingSince: a turn whose end fired no hook (a
// Copilot denial; the transcript showed it ready) leaves the record
// working; the person's next prompt starts a new working spell, so the
// surfaces say "working 2s", not the minutes since the last one. A prompt
// the agent injects itself continues the turn it belongs to.
func TestPromptRestartsWorkingSince(t *testing.T) {
	started := t0.Add(-5 * time.Minute)
	prev := &resolver.Record{SessionID: "s", State: resolver.StateWorking, StateChangedAt: resolver.At(started)}
	cases := []struct {
		name, source, prompt string
		want                 time.Time
	}{
		{"the person's prompt", "", "hello again", t0},
		{"an injected one", "", "<task-notification>done</task-notification>", started},
	}
	for _, c := range cases {
		r := Transition(prev, &Event{SessionID: "s", HookEventName: EventUserPromptSubmit, Source: c.source, Prompt: c.prompt}, t0)
		if r.State != resolver.StateWorking || !r.StateChangedAt.Equal(c.want) {
			t.Errorf("%s: %s since %v, want working since %v", c.name, r.State, r.StateChangedAt.Time, c.want)
		}
	}
}
