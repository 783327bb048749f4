package resolver

import (
	"testing"
	"time"
)

func TestNextChange(t *testing.T) {
	fresh := Session{SessionID: "f", Source: SourceFresh, Record: &Record{UpdatedAt: At(now.Add(-10 * time.Second))}}
	locked := Session{SessionID: "l", Source: SourceLock, Record: &Record{UpdatedAt: At(now.Add(-10 * time.Second))}}
	idle := func(ago time.Duration) ClaudeSession {
		return ClaudeSession{Status: ClaudeStatusIdle, StatusUpdatedAt: now.Add(-ago).UnixMilli()}
	}
	tests := []struct {
		name     string
		sessions []Session
		claude   []ClaudeSession
		want     time.Time
	}{
		{"nothing pending", []Session{locked}, nil, time.Time{}},
		{"a fresh record expires just after FreshTTL", []Session{fresh, locked}, nil, now.Add(20*time.Second + time.Millisecond)},
		{"Claude's idle overrules after ClaudeIdleAfter", []Session{locked}, []ClaudeSession{idle(2 * time.Second)}, now.Add(3 * time.Second)},
		{"the earlier of the two", []Session{fresh}, []ClaudeSession{idle(time.Second)}, now.Add(4 * time.Second)},
		{"an idle that overruled already is not pending", []Session{locked}, []ClaudeSession{idle(time.Minute)}, time.Time{}},
		{"busy says nothing", []Session{locked}, []ClaudeSession{{Status: ClaudeStatusBusy, StatusUpdatedAt: now.UnixMilli()}}, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NextChange(Snapshot{Claude: tt.claude}, tt.sessions, now); !got.Equal(tt.want) {
				t.Errorf("NextChange = %v, want %v", got, tt.want)
			}
		})
	}
}
