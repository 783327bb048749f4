package resolver

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

// summary renders sessions as "id:state:source:pid" in order.
func summary(sessions []Session) string {
	var parts []string
	for _, s := range sessions {
		parts = append(parts, fmt.Sprintf("%s:%s:%s:%d", s.SessionID, s.State, s.Source, s.PID))
	}
	return strings.Join(parts, " ")
}

func TestResolveAll(t *testing.T) {
	tests := []struct {
		name    string
		locks   []Lock
		records []*store.Record
		want    string
	}{
		{
			name: "nothing",
			want: "",
		},
		{
			name: "live, fresh, stale, dead and idle records; attention first",
			locks: []Lock{
				lock("/api", pidA, startedA, "api"),
				lock("/gone", pidDead, 9, "gone"),
			},
			records: []*store.Record{
				rec("api", store.StateReady, "/api", time.Hour, ofProc(pidA, startedA)),
				rec("gone", store.StateWorking, "/gone", time.Hour, ofProc(pidDead, 9)),
				rec("web", store.StateWaiting, "/web", 10*time.Second, ofProc(pidB, startedB)),
				rec("old", store.StateWorking, "/old", time.Minute),
				rec("killed", store.StateWorking, "/k", time.Second, ofProc(pidDead, 9)),
				rec("idle", store.StateIdle, "/i", time.Second),
			},
			want: "web:waiting:fresh:1002 api:ready:lock:1001",
		},
		{
			name: "same state: the most recently updated first",
			locks: []Lock{
				lock("/a", pidA, startedA, "a"),
				lock("/b", pidB, startedB, "b"),
			},
			records: []*store.Record{
				rec("a", store.StateWorking, "/a", time.Hour, ofProc(pidA, startedA)),
				rec("b", store.StateWorking, "/b", time.Minute, ofProc(pidB, startedB)),
			},
			want: "b:working:lock:1002 a:working:lock:1001",
		},
		{
			name: "two sessions in one project are two entries",
			locks: []Lock{
				lock("/p", pidA, startedA, "a"),
				lock("/p", pidB, startedB, "b"),
			},
			records: []*store.Record{
				rec("a", store.StateCompacting, "/p", time.Hour, ofProc(pidA, startedA)),
				rec("b", store.StateWorking, "/p", time.Hour, ofProc(pidB, startedB)),
			},
			want: "b:working:lock:1002 a:compacting:lock:1001",
		},
		{
			name: "resume: two live locks, one session, shown once with the process the record follows",
			locks: []Lock{
				lock("/p", pidA, startedA, "s"),
				lock("/p", pidB, startedB, "s"),
			},
			records: []*store.Record{rec("s", store.StateWorking, "/p", time.Hour, ofProc(pidB, startedB))},
			want:    "s:working:lock:1002",
		},
		{
			name: "resume: the record lives while the old process's lock names it",
			locks: []Lock{
				lock("/p", pidA, startedA, "s"),
				lock("/p", pidDead, 3, "s"),
			},
			// The record's pid is the resumed process, already gone; the
			// old process still runs the session.
			records: []*store.Record{rec("s", store.StateReady, "/p", time.Hour, ofProc(pidDead, 3))},
			want:    "s:ready:lock:1001",
		},
		{
			name:    "a lock without a session id finds its record by pid",
			locks:   []Lock{lock("/p", pidA, startedA, "")},
			records: []*store.Record{rec("s", store.StateWaiting, "/p/x", time.Hour, ofProc(pidA, startedA))},
			want:    "s:waiting:lock:1001",
		},
		{
			name:    "a live lock with no record is a ready session",
			locks:   []Lock{lock("/p", pidA, startedA, "s")},
			records: nil,
			want:    "s:ready:lock:1001",
		},
		{
			name:    "a lock naming no session and matching no record is still one entry",
			locks:   []Lock{lock("/p", pidA, startedA, ""), lock("/q", pidB, startedB, "")},
			records: nil,
			want:    ":ready:lock:1001 :ready:lock:1002",
		},
		{
			name:  "after /clear: the process shows its newest session, the old record is not a second entry",
			locks: []Lock{lock("/p", pidA, startedA, "old")},
			records: []*store.Record{
				rec("old", store.StateWorking, "/p", 20*time.Second, ofProc(pidA, startedA)),
				rec("new", store.StateReady, "/p", 10*time.Second, ofProc(pidA, startedA)),
			},
			want: "new:ready:lock:1001",
		},
		{
			name:    "fresh record of a process with no lock yet",
			records: []*store.Record{rec("s", store.StateReady, "/p", time.Second, ofProc(pidC, startedC))},
			want:    "s:ready:fresh:1003",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sessions := ResolveAll(snapshot(tt.locks, tt.records...), now, alive)
			if got := summary(sessions); got != tt.want {
				t.Errorf("ResolveAll\n got %q\nwant %q", got, tt.want)
			}
			// The order the directory listing gave does not matter.
			reversed := slices.Clone(tt.locks)
			slices.Reverse(reversed)
			if got := summary(ResolveAll(snapshot(reversed, tt.records...), now, alive)); got != tt.want {
				t.Errorf("ResolveAll with the locks reversed\n got %q\nwant %q", got, tt.want)
			}
			for _, s := range sessions {
				if (s.Source == SourceLock) != (s.Lock != nil) {
					t.Errorf("%s: source %s with lock %v", s.SessionID, s.Source, s.Lock)
				}
			}
		})
	}
}

func TestResolveAllSinceAndCWD(t *testing.T) {
	r := rec("s", store.StateWorking, "/p/sub", time.Second, ofProc(pidA, startedA))
	r.StateChangedAt = store.At(now.Add(-3 * time.Minute))
	sessions := ResolveAll(snapshot([]Lock{lock("/p", pidA, startedA, "s")}, r), now, alive)
	if len(sessions) != 1 {
		t.Fatalf("got %d sessions, want 1", len(sessions))
	}
	s := sessions[0]
	if !s.Since.Equal(now.Add(-3*time.Minute)) || s.CWD != "/p/sub" || !s.UpdatedAt().Equal(now.Add(-time.Second)) {
		t.Errorf("since %v cwd %q updated %v", s.Since, s.CWD, s.UpdatedAt())
	}
}

func TestAggregate(t *testing.T) {
	tests := []struct {
		states []store.State
		want   store.State
	}{
		{nil, store.StateIdle},
		{[]store.State{store.StateReady}, store.StateReady},
		{[]store.State{store.StateReady, store.StateCompacting}, store.StateCompacting},
		{[]store.State{store.StateCompacting, store.StateWorking, store.StateReady}, store.StateWorking},
		{[]store.State{store.StateWorking, store.StateWaiting, store.StateReady}, store.StateWaiting},
		{[]store.State{store.StateWaiting, store.StateWorking}, store.StateWaiting},
		{[]store.State{store.StateIdle}, store.StateIdle},
		{[]store.State{"bogus", store.StateReady}, store.StateReady},
	}
	for _, tt := range tests {
		var sessions []Session
		for _, s := range tt.states {
			sessions = append(sessions, Session{State: s})
		}
		if got := Aggregate(sessions); got != tt.want {
			t.Errorf("Aggregate(%v) = %s, want %s", tt.states, got, tt.want)
		}
	}
}
