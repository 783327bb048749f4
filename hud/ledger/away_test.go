package ledger

import (
	"strings"
	"testing"
	"time"
)

// proj is a state entry of the session of project p at minute m, with
// its activity.
func proj(m float64, p, state string, commits, files, todos, ctx int) Entry {
	return Entry{T: at(m), Key: "key-" + p, Project: "/src/" + p, State: state,
		Commits: commits, Files: files, Todos: todos, Context: ctx}
}

func TestSummarize(t *testing.T) {
	setLocal(t, time.UTC)
	web := proj(-10, "web", "working", 0, 0, 0, 0)
	web.Host = "devbox"
	webReady := proj(25, "web", "ready", 0, 1, 0, 0)
	webReady.Host = "devbox"
	entries := []Entry{
		proj(-100, "old", "ready", 5, 5, 0, 0),
		proj(-30, "ctx", "ready", 0, 0, 0, 40),
		proj(-30, "idle", "ready", 1, 1, 1, 30),
		proj(-20, "gone", "working", 0, 0, 0, 0),
		proj(-10, "proj", "working", 1, 2, 0, 0),
		proj(-10, "busy", "working", 2, 0, 0, 0),
		web,
		proj(-5, "api", "working", 0, 0, 0, 0),
		proj(10, "ctx", "working", 0, 0, 0, 40),
		{T: at(15), Key: "key-api", Answer: ViaTray}, // not a state
		{T: at(16), Away: at(0)},
		proj(20, "ctx", "ready", 0, 0, 1, 62),
		{T: at(20), Key: "key-api", Project: "/src/api", State: "waiting", For: "Bash: npm test"},
		proj(20, "gone", Ended, 0, 0, 0, 0),
		webReady,
		proj(30, "proj", "ready", 4, 4, 0, 0),
		proj(30, "busy", "compacting", 3, 0, 0, 0),
		proj(50, "idle", "working", 9, 9, 9, 0), // after the absence
	}
	abs := Summarize(entries, at(0), at(42))
	want := []string{
		"api: waits since 09:20 (22m) for Bash: npm test",
		"busy: worked · 1 commit",
		"ctx: finished · 1 todo · context 40% → 62%",
		"devbox · web: finished · 1 file",
		"gone: ended",
		"proj: finished · 3 commits · 2 files",
		"5-hour limit 40% → 62%",
	}
	abs.Limits = []string{"5-hour limit 40% → 62%"}
	if got := abs.Lines(at(42)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	api := abs.Sessions[0]
	if api.Key != "key-api" || !api.Waiting.Equal(at(20)) || api.For != "Bash: npm test" || api.Finished || api.Ended {
		t.Errorf("api: %+v", api)
	}
	if got := abs.Title(); got != "While you were away (42m)" {
		t.Errorf("Title() = %q", got)
	}
	if abs.Empty() || !(Absence{}).Empty() || (Absence{Limits: []string{"x"}}).Empty() {
		t.Error("Empty is wrong")
	}
}

func TestSummarizeFinished(t *testing.T) {
	tests := []struct {
		name    string
		entries []Entry
		want    string // its line, "" when left out
	}{
		{"working at from, ready at to", []Entry{proj(-5, "p", "working", 0, 0, 0, 0), proj(10, "p", "ready", 0, 0, 0, 0)}, "p: finished"},
		{"ready at from, a turn meanwhile", []Entry{proj(-5, "p", "ready", 0, 0, 0, 0), proj(10, "p", "working", 0, 0, 0, 0),
			proj(20, "p", "ready", 0, 0, 0, 0)}, "p: finished"},
		{"compacting at from, ready at to", []Entry{proj(-5, "p", "compacting", 0, 0, 0, 0), proj(10, "p", "ready", 0, 0, 0, 0)}, "p: finished"},
		{"ready throughout", []Entry{proj(-5, "p", "ready", 0, 0, 0, 0)}, ""},
		{"ready at from, noted again", []Entry{proj(-5, "p", "ready", 0, 0, 0, 0), proj(10, "p", "ready", 0, 0, 0, 0)}, ""},
		{"new meanwhile, still working", []Entry{proj(10, "p", "working", 2, 0, 0, 0)}, "p: worked · 2 commits"},
		{"waiting throughout", []Entry{proj(-5, "p", "waiting", 0, 0, 0, 0)}, "p: waits since 08:55 (1h 5m)"},
		{"waiting, another question", []Entry{proj(-5, "p", "waiting", 0, 0, 0, 0),
			{T: at(10), Key: "key-p", Project: "/src/p", State: "waiting", For: "Edit"}}, "p: waits since 09:10 (50m) for Edit"},
		{"ended before", []Entry{proj(-20, "p", "working", 0, 0, 0, 0), proj(-10, "p", Ended, 0, 0, 0, 0)}, ""},
		{"waiting, ended before", []Entry{proj(-20, "p", "waiting", 0, 0, 0, 0), proj(-10, "p", Ended, 0, 0, 0, 0)}, ""},
		{"waiting, ended meanwhile", []Entry{proj(-20, "p", "waiting", 0, 0, 0, 0), proj(10, "p", Ended, 0, 0, 0, 0)}, "p: ended"},
		{"ended, then back", []Entry{proj(-20, "p", "working", 0, 0, 0, 0), proj(10, "p", Ended, 0, 0, 0, 0),
			proj(20, "p", "working", 0, 0, 0, 0), proj(30, "p", "ready", 0, 0, 0, 0)}, "p: finished"},
		{"fewer commits (a reset)", []Entry{proj(-5, "p", "working", 5, 5, 5, 0), proj(10, "p", "working", 1, 1, 1, 0)}, ""},
		{"context unchanged", []Entry{proj(-5, "p", "working", 0, 0, 0, 40), proj(10, "p", "ready", 0, 0, 0, 40)}, "p: finished"},
		{"context known once", []Entry{proj(-5, "p", "ready", 0, 0, 0, 0), proj(10, "p", "ready", 0, 0, 0, 50)}, ""},
	}
	setLocal(t, time.UTC)
	for _, tt := range tests {
		abs := Summarize(tt.entries, at(0), at(60))
		got := strings.Join(abs.Lines(at(60)), "\n")
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestAwayLine(t *testing.T) {
	setLocal(t, time.UTC)
	tests := []struct {
		a    Away
		want string
	}{
		{Away{Key: "abcdef123456"}, "session abcdef12: worked"},
		{Away{Project: "/src/p", Name: "auth", Agent: "codex", Ended: true, Finished: true}, "p · auth (Codex): ended"},
		{Away{Project: "/src/p", Finished: true, Recap: "fixed the login", Commits: 1, Files: 1, Todos: 2},
			"p: finished · fixed the login · 1 commit · 1 file · 2 todos"},
		{Away{Project: "/src/p", Waiting: at(-90), Ended: true, ContextFrom: 10, ContextTo: 20},
			"p: waits since 07:30 (1h 30m) · context 10% → 20%"},
	}
	for _, tt := range tests {
		abs := Absence{Sessions: []Away{tt.a}}
		if got := abs.Lines(at(0)); len(got) != 1 || got[0] != tt.want {
			t.Errorf("%+v: %q, want %q", tt.a, got, tt.want)
		}
	}
	if got := (Absence{From: at(0), To: at(150)}).Title(); got != "While you were away (2h 30m)" {
		t.Errorf("Title() = %q", got)
	}
}
