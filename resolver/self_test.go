package resolver

import (
	"testing"
	"time"
)

func TestWithSelf(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ms := func(ago time.Duration) int64 { return now.Add(-ago).UnixMilli() }
	rec := func(st State, updatedAgo time.Duration) *Record {
		return &Record{SessionID: "me", State: st, CWD: "/p", PID: 7,
			UpdatedAt: At(now.Add(-updatedAgo)), StateChangedAt: At(now.Add(-updatedAgo))}
	}
	claude := func(status string, ago time.Duration) ClaudeSession {
		return ClaudeSession{PID: 7, SessionID: "me", Status: status, StatusUpdatedAt: ms(ago), UpdatedAt: ms(ago), Name: "auth refactor", NameSource: "user"}
	}
	tests := []struct {
		name     string
		listed   *Record // the session as ResolveAll found it (nil: left out)
		stored   *Record // the store's record
		claude   []ClaudeSession
		pid      int
		want     State // "" for no session
		opinion  bool
		withName bool
	}{
		{name: "the prompt was just submitted: busy after the record's ready",
			listed: rec(StateReady, 5*time.Second), claude: []ClaudeSession{claude(ClaudeStatusBusy, 100*time.Millisecond)},
			want: StateWorking, opinion: true, withName: true},
		{name: "busy from before the last event changes nothing",
			listed: rec(StateReady, time.Second), claude: []ClaudeSession{claude(ClaudeStatusBusy, 2*time.Second)},
			want: StateReady, withName: true},
		{name: "a dialog opened after the last event",
			listed: rec(StateWorking, 3*time.Second), claude: []ClaudeSession{claude(ClaudeStatusWaiting, time.Second)},
			want: StateWaiting, opinion: true, withName: true},
		{name: "an idle not yet confirmed keeps working",
			listed: rec(StateWorking, 3*time.Second), claude: []ClaudeSession{claude(ClaudeStatusIdle, 100*time.Millisecond)},
			want: StateWorking, withName: true},
		{name: "an idle confirmed (Esc, no hook fired) is ready",
			listed: rec(StateWorking, 3*time.Second), claude: []ClaudeSession{claude(ClaudeStatusIdle, time.Second)},
			want: StateReady, opinion: true, withName: true},
		{name: "left out by the resolver: the record, corrected",
			stored: rec(StateReady, time.Hour), claude: []ClaudeSession{claude(ClaudeStatusBusy, time.Second)},
			want: StateWorking, opinion: true, withName: true},
		{name: "no record yet: Claude's own status",
			claude: []ClaudeSession{claude(ClaudeStatusBusy, time.Second)},
			want:   StateWorking, opinion: true, withName: true},
		{name: "another process's file is not ours",
			listed: rec(StateReady, 5*time.Second), claude: []ClaudeSession{claude(ClaudeStatusBusy, time.Second)}, pid: 8,
			want: StateReady},
		{name: "nothing known", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := Snapshot{Store: NewStore(), Claude: tt.claude}
			var sessions []Session
			if tt.listed != nil {
				snap.Store.Sessions["me"] = tt.listed
				sessions = append(sessions, Session{SessionID: "me", State: tt.listed.State, Record: tt.listed, Source: SourceLock, PID: 7})
			}
			if tt.stored != nil {
				snap.Store.Sessions["me"] = tt.stored
			}
			other := Session{SessionID: "other", State: StateWaiting}
			sessions = append(sessions, other)
			got := WithSelf(snap, sessions, "me", tt.pid, now)
			var me *Session
			for i := range got {
				if got[i].SessionID == "me" {
					me = &got[i]
				}
			}
			if tt.want == "" {
				if me != nil {
					t.Fatalf("got a session %+v, want none", me)
				}
				return
			}
			if me == nil {
				t.Fatalf("no session, want %s", tt.want)
			}
			if me.State != tt.want || (me.Opinion != nil) != tt.opinion || (me.Name() != "") != tt.withName {
				t.Errorf("state %s, opinion %v, name %q; want %s, %v, %v", me.State, me.Opinion != nil, me.Name(), tt.want, tt.opinion, tt.withName)
			}
			if len(got) != 2 {
				t.Errorf("%d sessions, want the other kept and me once", len(got))
			}
		})
	}
}
