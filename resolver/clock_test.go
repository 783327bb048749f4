package resolver

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

func TestNextChange(t *testing.T) {
	// Every record's last event was 10 s ago.
	record := func(state store.State) *store.Record {
		return &store.Record{State: state, UpdatedAt: store.At(now.Add(-10 * time.Second)), StateChangedAt: store.At(now.Add(-10 * time.Second))}
	}
	fresh := Session{SessionID: "f", Source: SourceFresh, Record: record(store.StateReady)}
	claude := func(status string, ago time.Duration) *ClaudeSession {
		return &ClaudeSession{Status: status, StatusUpdatedAt: now.Add(-ago).UnixMilli()}
	}
	locked := func(state store.State, c *ClaudeSession) Session {
		return Session{SessionID: "l", Source: SourceLock, Record: record(state), Claude: c}
	}
	tests := []struct {
		name     string
		sessions []Session
		want     time.Time
	}{
		{"nothing pending", []Session{locked(store.StateWorking, nil)}, time.Time{}},
		{"a fresh record expires just after FreshTTL", []Session{fresh, locked(store.StateWorking, nil)}, now.Add(20*time.Second + time.Millisecond)},
		{"Claude's idle overrules working the moment its confirmation ends",
			[]Session{locked(store.StateWorking, claude(ClaudeStatusIdle, 100*time.Millisecond))}, now.Add(ClaudeIdleAfter - 100*time.Millisecond)},
		{"but not waiting: an idle after the dialog began overrules it at once",
			[]Session{locked(store.StateWaiting, claude(ClaudeStatusIdle, 100*time.Millisecond))}, time.Time{}},
		{"and compacting (a refused /compact)",
			[]Session{locked(store.StateCompacting, claude(ClaudeStatusIdle, 200*time.Millisecond))}, now.Add(ClaudeIdleAfter - 200*time.Millisecond)},
		{"around a subagent it takes ClaudeAgentIdleAfter",
			[]Session{{SessionID: "l", Source: SourceLock, Record: &store.Record{State: store.StateWorking, Subagents: []string{"a1"},
				UpdatedAt: store.At(now.Add(-10 * time.Second))}, Claude: claude(ClaudeStatusIdle, time.Second)}}, now.Add(ClaudeAgentIdleAfter - time.Second)},
		{"the earlier of the two",
			[]Session{fresh, locked(store.StateWorking, claude(ClaudeStatusIdle, 100*time.Millisecond))}, now.Add(ClaudeIdleAfter - 100*time.Millisecond)},
		{"an idle that overruled already is not pending", []Session{locked(store.StateWorking, claude(ClaudeStatusIdle, time.Second))}, time.Time{}},
		{"an idle over a ready record changes nothing", []Session{locked(store.StateReady, claude(ClaudeStatusIdle, 100*time.Millisecond))}, time.Time{}},
		{"an idle older than the record's last event never overrules", []Session{locked(store.StateWorking, claude(ClaudeStatusIdle, 11*time.Second))}, time.Time{}},
		{"busy says nothing", []Session{locked(store.StateReady, claude(ClaudeStatusBusy, 0))}, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NextChange(tt.sessions, now); !got.Equal(tt.want) {
				t.Errorf("NextChange = %v, want %v", got, tt.want)
			}
		})
	}
}
