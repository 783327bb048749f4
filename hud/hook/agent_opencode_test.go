package hook

import (
	"bytes"
	"testing"

	"github.com/capacitor-hud/hud/resolver"
)

// TestOpencodeTurns runs opencode 1.18.33's events (as its bus sent them,
// with what hud's plugin adds) through the hook, in the order a person's
// steps fire them, and checks the record after each.
func TestOpencodeTurns(t *testing.T) {
	const sid = `"sessionID":"ses_df6d7c3c1ffeqnH67O5JZxgVcj","directory":"/home/u/api"`
	const ask = `"id":"per_1","sessionID":"ses_df6d7c3c1ffeqnH67O5JZxgVcj","permission":"bash","patterns":["touch a.txt"],"metadata":{"command":"touch a.txt"},"always":["touch *"]`
	const question = `"id":"que_1","sessionID":"ses_df6d7c3c1ffeqnH67O5JZxgVcj","questions":[{"question":"Which colour?","header":"Choice","options":[{"label":"Red","description":"warm"}]}]`
	steps := []struct {
		event, payload string
		want           resolver.State
		waitingFor     string
	}{
		{"session.created", `{` + sid + `,"info":{"id":"ses_df6d7c3c1ffeqnH67O5JZxgVcj","directory":"/home/u/api"}}`, resolver.StateReady, ""},
		{"chat.message", `{` + sid + `,"prompt":"hello"}`, resolver.StateWorking, ""},
		{"session.status", `{` + sid + `,"status":{"type":"busy"}}`, resolver.StateWorking, ""},
		{"session.status", `{` + sid + `,"status":{"type":"idle"}}`, resolver.StateReady, ""},
		{"session.idle", `{` + sid + `}`, resolver.StateReady, ""},
		// A permission approved: busy while the dialog is up keeps it up.
		{"chat.message", `{` + sid + `,"prompt":"TOOL:touch a.txt"}`, resolver.StateWorking, ""},
		{"permission.asked", `{` + ask + `,"directory":"/home/u/api"}`, resolver.StateWaiting, "Bash: touch a.txt"},
		{"session.status", `{` + sid + `,"status":{"type":"busy"}}`, resolver.StateWaiting, "Bash: touch a.txt"},
		{"permission.replied", `{` + sid + `,"requestID":"per_1","reply":"once","asked":{` + ask + `}}`, resolver.StateWorking, ""},
		{"session.idle", `{` + sid + `}`, resolver.StateReady, ""},
		// Rejected.
		{"chat.message", `{` + sid + `,"prompt":"TOOL:touch b.txt"}`, resolver.StateWorking, ""},
		{"permission.asked", `{` + ask + `,"directory":"/home/u/api"}`, resolver.StateWaiting, "Bash: touch a.txt"},
		{"permission.replied", `{` + sid + `,"requestID":"per_1","reply":"reject","asked":{` + ask + `}}`, resolver.StateReady, ""},
		// Esc: the abort's error says nothing, its idle ends the turn.
		{"chat.message", `{` + sid + `,"prompt":"SLOW:20"}`, resolver.StateWorking, ""},
		{"session.error", `{` + sid + `,"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}}`, resolver.StateWorking, ""},
		{"session.idle", `{` + sid + `}`, resolver.StateReady, ""},
		// The API fails: retries keep it working, the error ends it.
		{"chat.message", `{` + sid + `,"prompt":"ERROR:500"}`, resolver.StateWorking, ""},
		{"session.status", `{` + sid + `,"status":{"type":"retry","attempt":1,"message":"the stand-in answers 500 as asked"}}`, resolver.StateWorking, ""},
		{"session.error", `{` + sid + `,"error":{"name":"APIError","data":{"message":"the stand-in answers 500 as asked"}}}`, resolver.StateReady, ""},
		// A question.
		{"chat.message", `{` + sid + `,"prompt":"ASK:Which colour?"}`, resolver.StateWorking, ""},
		{"question.asked", `{` + question + `,"directory":"/home/u/api"}`, resolver.StateWaiting, "Choice: Which colour?"},
		{"question.replied", `{` + sid + `,"requestID":"que_1","answers":[["Red"]],"asked":{` + question + `}}`, resolver.StateWorking, ""},
		{"session.idle", `{` + sid + `}`, resolver.StateReady, ""},
		{"session.deleted", `{` + sid + `}`, "", ""},
	}
	home := t.TempDir()
	for i, s := range steps {
		var stderr bytes.Buffer
		if code := Main([]string{"opencode", s.event}, testEnv(home, s.payload, &stderr)); code != 0 {
			t.Fatalf("step %d %s: exit %d", i, s.event, code)
		}
		st, err := resolver.LoadStore(resolver.Layout{Home: home}.StorePath())
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
		case r.Agent != resolver.AgentOpencode || r.State != s.want || r.WaitingFor != s.waitingFor || r.CWD != "/home/u/api":
			t.Errorf("step %d %s: agent %q state %s waiting for %q cwd %q; want %s %q", i, s.event, r.Agent, r.State, r.WaitingFor, r.CWD, s.want, s.waitingFor)
		}
	}
}

func TestOpencodeDecodeRefuses(t *testing.T) {
	for _, c := range []struct{ event, payload string }{
		{"", `{"sessionID":"ses_1"}`},
		{"session.idle", `{"sessionID":"../x"}`},
		{"session.idle", `not json`},
	} {
		if _, err := decodeOpencode(c.event, []byte(c.payload)); err == nil {
			t.Errorf("%s %s decoded", c.event, c.payload)
		}
	}
	if ev, err := decodeOpencode("message.part.delta", []byte(`{"sessionID":"ses_1"}`)); ev != nil || err != nil {
		t.Errorf("an event hud does not follow: %v %v", ev, err)
	}
}
