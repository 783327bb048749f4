package ledger

import (
	"slices"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// sess is a session of key showing state since minute since.
func sess(key string, state store.State, since float64, waitingFor string) view.Session {
	return view.Session{Key: key, SessionID: "id-" + key, State: state, Since: at(since), WaitingFor: waitingFor,
		ProjectDir: "/src/" + key}
}

// said writes entries as "key:state@minute" for comparing.
func said(entries []Entry) string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Key+":"+e.State+"@"+e.T.Sub(t0).String())
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func TestRecorderObserve(t *testing.T) {
	r := NewRecorder(nil, func(Entry) bool { return true })
	steps := []struct {
		name     string
		now      float64
		sessions []view.Session
		want     string
	}{
		{"first sight starts at Since", 10, []view.Session{
			sess("a", store.StateWorking, 5, ""),
			sess("future", store.StateReady, 20, ""), // a clock ahead: now
			{Key: "nosince", SessionID: "x", State: store.StateReady},
			{Key: "nohook", State: store.StateWorking}, // no session id yet
		}, "a:working@5m0s future:ready@10m0s nosince:ready@10m0s"},
		{"nothing changed", 11, []view.Session{
			sess("a", store.StateWorking, 5, ""), sess("future", store.StateReady, 20, ""),
			{Key: "nosince", SessionID: "x", State: store.StateReady},
		}, ""},
		{"a state changes: now, not Since", 12, []view.Session{
			sess("a", store.StateWaiting, 11, "Bash: ls"), sess("future", store.StateReady, 20, ""),
			{Key: "nosince", SessionID: "x", State: store.StateReady},
		}, "a:waiting@12m0s"},
		{"what it waits for changes", 13, []view.Session{
			sess("a", store.StateWaiting, 11, "Edit: x.go"), sess("future", store.StateReady, 20, ""),
			{Key: "nosince", SessionID: "x", State: store.StateReady},
		}, "a:waiting@13m0s"},
		{"two gone", 14, []view.Session{sess("a", store.StateWaiting, 11, "Edit: x.go")},
			"future:ended@14m0s nosince:ended@14m0s"},
		{"gone once", 15, []view.Session{sess("a", store.StateWaiting, 11, "Edit: x.go")}, ""},
		{"all gone", 16, nil, "a:ended@16m0s"},
		{"back: from its end, not before", 17, []view.Session{sess("a", store.StateCompacting, 12, "")}, "a:compacting@16m0s"},
		{"gone again", 18, nil, "a:ended@18m0s"},
		{"back since after its end", 30, []view.Session{sess("a", store.StateReady, 25, "")}, "a:ready@25m0s"},
	}
	for _, s := range steps {
		got := r.Observe(at(s.now), s.sessions)
		if said(got) != s.want {
			t.Errorf("%s: %s, want %s", s.name, said(got), s.want)
		}
	}
	if len(r.last) != 1 {
		t.Errorf("live sessions %d, want 1", len(r.last))
	}
}

// TestRecorderSeenAgain: a session back after it was recorded ended (a
// snapshot that missed it) starts again no earlier than that end, so the
// ledger does not say it ended while it is live.
func TestRecorderSeenAgain(t *testing.T) {
	for _, resumed := range []bool{false, true} {
		r := NewRecorder(nil, func(Entry) bool { return true })
		var all []Entry
		all = append(all, r.Observe(at(10), []view.Session{sess("a", store.StateWorking, 5, "")})...)
		all = append(all, r.Observe(at(14), nil)...)
		if resumed { // a recorder that took over reads the end back
			r = NewRecorder(all, func(Entry) bool { return true })
		}
		all = append(all, r.Observe(at(15), []view.Session{sess("a", store.StateWorking, 5, "")})...)
		slices.SortStableFunc(all, func(a, b Entry) int { return a.T.Compare(b.T) })
		h := Fold(all, at(0), at(60))
		spans := h.Timelines[0].Spans
		if last := spans[len(spans)-1]; !last.To.Equal(at(60)) || last.State != "working" {
			t.Errorf("resumed %v: entries %s fold to spans %v; want it working at the end", resumed, said(all), spans)
		}
	}
}

func TestRecorderEntries(t *testing.T) {
	r := NewRecorder(nil, func(Entry) bool { return true })
	s := view.Session{Key: "k1", SessionID: "id", State: store.StateReady, Since: at(-1), ProjectDir: "/src/api",
		ClaudeName: "auth", Agent: "codex", Host: "devbox", ByClaude: true,
		Activity: &activity.Facts{Commits: 3, FilesEdited: 5, TodosDone: 2},
		Context:  &resolver.Context{Tokens: 50_000, Window: 200_000}}
	got := r.Observe(at(0), []view.Session{s})
	want := Entry{T: at(-1), Key: "devbox/k1", Host: "devbox", Agent: "codex", Project: "/src/api", Name: "auth",
		State: "ready", ByClaude: true, Commits: 3, Files: 5, Todos: 2, Context: 25}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("Observe: %+v, want %+v", got, want)
	}
	got = r.Observe(at(1), nil)
	want = Entry{T: at(1), Key: "devbox/k1", Host: "devbox", Agent: "codex", Project: "/src/api", Name: "auth", State: Ended}
	if len(got) != 1 || got[0] != want {
		t.Errorf("Observe of the session gone: %+v, want %+v", got, want)
	}
}

func TestNewRecorderPrimed(t *testing.T) {
	entries := []Entry{
		{T: at(0), Key: "a", State: "working"},
		{T: at(1), Key: "b", State: "waiting", For: "Bash: ls"},
		{T: at(2), Key: "c", State: "ready"}, {T: at(3), Key: "c", State: Ended},
		{T: at(4), Key: "dev/r", Host: "dev", State: "working"}, // not this recorder's
		{T: at(5), Key: "a", Answer: ViaTray},
		{T: at(6), Away: at(5)},
		{T: at(7), Key: "d", State: Ended}, // an end alone
	}
	r := NewRecorder(entries, func(e Entry) bool { return e.Host == "" })
	if len(r.last) != 2 {
		t.Errorf("live sessions %d, want 2 (a and b)", len(r.last))
	}
	got := r.Observe(at(10), []view.Session{
		sess("a", store.StateWorking, 0, ""),
		sess("b", store.StateWaiting, 1, "Bash: ls"),
		sess("c", store.StateReady, 8, ""),
	})
	// r was never seen by this recorder: no end for it.
	if said(got) != "c:ready@8m0s" {
		t.Errorf("Observe: %s, want c:ready@8m0s alone", said(got))
	}
}

func TestRecorderResumed(t *testing.T) {
	tests := []struct {
		name   string
		newest float64 // the newest entry read back
		now    float64
		ended  float64
	}{
		{"read back long ago: ended then", 30, 150, 30},
		{"read back a moment ago: ended now", 149.5, 150, 150},
		{"a minute to the dot: now", 149, 150, 150},
	}
	for _, tt := range tests {
		prior := []Entry{
			{T: at(0), Key: "a", State: "working"},
			{T: at(1), Key: "b", State: "ready"},
			{T: at(tt.newest), Key: "dev/r", Host: "dev", State: "ready"},
		}
		r := NewRecorder(prior, func(e Entry) bool { return e.Host == "" })
		r.resumed(prior)
		got := r.Observe(at(tt.now), []view.Session{sess("b", store.StateReady, 1, "")})
		if want := "a:ended@" + min_(tt.ended).String(); said(got) != want {
			t.Errorf("%s: %s, want %s", tt.name, said(got), want)
		}
		// Only the first Observe after resuming looks back.
		got = r.Observe(at(tt.now+100), nil)
		if want := "b:ended@" + min_(tt.now+100).String(); said(got) != want {
			t.Errorf("%s, then: %s, want %s", tt.name, said(got), want)
		}
	}
	// An end is never recorded before the state it ends.
	r := NewRecorder([]Entry{{T: at(50), Key: "a", State: "working"}}, func(Entry) bool { return true })
	r.resumed([]Entry{{T: at(10), Key: "x", State: "ready"}})
	if got := r.Observe(at(200), nil); said(got) != "a:ended@50m0s" {
		t.Errorf("ended %s, want at 50m, when its state began", said(got))
	}
}

func TestKeyOf(t *testing.T) {
	tests := []struct {
		s    view.Session
		want string
	}{
		{view.Session{Key: "abc"}, "abc"},
		{view.Session{Key: "abc", Host: "devbox"}, "devbox/abc"},
		{view.Session{Key: "", Host: "devbox"}, "devbox/"},
	}
	for _, tt := range tests {
		if got := KeyOf(&tt.s); got != tt.want {
			t.Errorf("KeyOf(%+v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}
