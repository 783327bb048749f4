package resolver

import (
	"testing"

	"github.com/capacitor-hud/hud/internal/store"
)

func TestSessionAgentsAndWaitingFor(t *testing.T) {
	rec := func(st store.State, waitingFor string, agents ...string) *store.Record {
		return &store.Record{State: st, WaitingFor: waitingFor, Subagents: agents}
	}
	cases := []struct {
		name       string
		s          Session
		agents     int
		waitingFor string
	}{
		{"working with two agents", Session{State: store.StateWorking, Record: rec(store.StateWorking, "", "a1", "a2")}, 2, ""},
		{"ready by Claude's own word forgets the agents", Session{State: store.StateReady, Record: rec(store.StateWorking, "", "a1")}, 0, ""},
		{"waiting with the hook's text", Session{State: store.StateWaiting, Record: rec(store.StateWaiting, "Choice: Which?", "a1"), Opinion: &ClaudeSession{WaitingFor: "input needed"}}, 1, "Choice: Which?"},
		{"waiting per Claude's file: its dialog", Session{State: store.StateWaiting, Record: rec(store.StateReady, ""), Opinion: &ClaudeSession{WaitingFor: "dialog open"}}, 0, "dialog open"},
		{"a live lock without a record", Session{State: store.StateReady}, 0, ""},
		{"working says nothing of waiting", Session{State: store.StateWorking, Record: rec(store.StateWorking, "stale")}, 0, ""},
	}
	for _, c := range cases {
		if got := c.s.SubagentsRunning(); got != c.agents {
			t.Errorf("%s: SubagentsRunning %d, want %d", c.name, got, c.agents)
		}
		if got := c.s.WaitingFor(); got != c.waitingFor {
			t.Errorf("%s: WaitingFor %q, want %q", c.name, got, c.waitingFor)
		}
	}
	for n, want := range map[int]string{0: "", 1: "1 agent running", 3: "3 agents running", 12: "12 agents running"} {
		if got := SubagentsText(n); got != want {
			t.Errorf("SubagentsText(%d) = %q, want %q", n, got, want)
		}
	}
	for _, c := range []struct {
		n            int
		detail, want string
	}{
		{0, `"fix it"`, `"fix it"`},
		{1, `"fix it"`, `1 agent running · "fix it"`},
		{2, "", "2 agents running"},
		{0, "", ""},
	} {
		if got := WithSubagents(c.n, c.detail); got != c.want {
			t.Errorf("WithSubagents(%d, %q) = %q, want %q", c.n, c.detail, got, c.want)
		}
	}
}
