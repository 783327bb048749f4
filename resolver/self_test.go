package resolver

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

func TestWithSelf(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ms := func(ago time.Duration) int64 { return now.Add(-ago).UnixMilli() }
	rec := func(st store.State, updatedAgo time.Duration) *store.Record {
		return &store.Record{SessionID: "me", State: st, CWD: "/p", PID: 7,
			UpdatedAt: store.At(now.Add(-updatedAgo)), StateChangedAt: store.At(now.Add(-updatedAgo))}
	}
	claude := func(status string, ago time.Duration) ClaudeSession {
		return ClaudeSession{PID: 7, SessionID: "me", Status: status, StatusUpdatedAt: ms(ago), UpdatedAt: ms(ago), Name: "auth refactor", NameSource: "user"}
	}
	tests := []struct {
		name     string
		listed   *store.Record // the session as ResolveAll found it (nil: left out)
		stored   *store.Record // the store's record
		claude   []ClaudeSession
		pid      int
		want     store.State // "" for no session
		opinion  bool
		withName bool
	}{
		{name: "the prompt was just submitted: busy after the record's ready",
			listed: rec(store.StateReady, 5*time.Second), claude: []ClaudeSession{claude(ClaudeStatusBusy, 100*time.Millisecond)},
			want: store.StateWorking, opinion: true, withName: true},
		{name: "busy from before the last event changes nothing",
			listed: rec(store.StateReady, time.Second), claude: []ClaudeSession{claude(ClaudeStatusBusy, 2*time.Second)},
			want: store.StateReady, withName: true},
		{name: "a dialog opened after the last event",
			listed: rec(store.StateWorking, 3*time.Second), claude: []ClaudeSession{claude(ClaudeStatusWaiting, time.Second)},
			want: store.StateWaiting, opinion: true, withName: true},
		{name: "an idle not yet confirmed keeps working",
			listed: rec(store.StateWorking, 3*time.Second), claude: []ClaudeSession{claude(ClaudeStatusIdle, 100*time.Millisecond)},
			want: store.StateWorking, withName: true},
		{name: "an idle confirmed (Esc, no hook fired) is ready",
			listed: rec(store.StateWorking, 3*time.Second), claude: []ClaudeSession{claude(ClaudeStatusIdle, time.Second)},
			want: store.StateReady, opinion: true, withName: true},
		{name: "left out by the resolver: the record, corrected",
			stored: rec(store.StateReady, time.Hour), claude: []ClaudeSession{claude(ClaudeStatusBusy, time.Second)},
			want: store.StateWorking, opinion: true, withName: true},
		{name: "no record yet: Claude's own status",
			claude: []ClaudeSession{claude(ClaudeStatusBusy, time.Second)},
			want:   store.StateWorking, opinion: true, withName: true},
		{name: "another process's file is not ours",
			listed: rec(store.StateReady, 5*time.Second), claude: []ClaudeSession{claude(ClaudeStatusBusy, time.Second)}, pid: 8,
			want: store.StateReady},
		{name: "nothing known", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := Snapshot{Store: store.New(), Claude: tt.claude}
			var sessions []Session
			if tt.listed != nil {
				snap.Store.Sessions["me"] = tt.listed
				sessions = append(sessions, Session{SessionID: "me", State: tt.listed.State, Record: tt.listed, Source: SourceLock, PID: 7})
			}
			if tt.stored != nil {
				snap.Store.Sessions["me"] = tt.stored
			}
			other := Session{SessionID: "other", State: store.StateWaiting}
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
