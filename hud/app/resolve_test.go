package app

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

// TestToPresentWaitingAndAgents: the menu says what a session waits for
// as status and notifications do (Claude's own dialog when the hook
// recorded none) and counts its agents.
func TestToPresentWaitingAndAgents(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	sessions := []resolver.Session{
		{SessionID: "a", State: resolver.StateWaiting, Source: resolver.SourceLock,
			Record:  &resolver.Record{SessionID: "a", State: resolver.StateReady, CWD: "/p/api"},
			Opinion: &resolver.ClaudeSession{Status: "waiting", WaitingFor: "dialog open"}},
		{SessionID: "b", State: resolver.StateWorking, Source: resolver.SourceLock,
			Record: &resolver.Record{SessionID: "b", State: resolver.StateWorking, CWD: "/p/web", Agents: []string{"x", "y"}}},
	}
	got := toPresent(sessions, now, nil)
	if got[0].WaitingFor != "dialog open" || got[1].Agents != 2 {
		t.Errorf("waiting_for %q, agents %d", got[0].WaitingFor, got[1].Agents)
	}
}
