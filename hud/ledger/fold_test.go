package ledger

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// t0 is the start of the periods the tests fold; at(m) is m minutes
// after it.
var t0 = time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)

func at(m float64) time.Time { return t0.Add(time.Duration(m * float64(time.Minute))) }

func min_(m float64) time.Duration { return time.Duration(m * float64(time.Minute)) }

// st is a state entry of session key at minute m.
func st(m float64, key, state string) Entry { return Entry{T: at(m), Key: key, State: state} }

// waiting is a waiting entry of key at minute m, for what.
func waiting(m float64, key, what string) Entry {
	return Entry{T: at(m), Key: key, State: "waiting", For: what}
}

// answered is an answer to key's dialog at minute m.
func answered(m float64, key, via, choice string, refused bool) Entry {
	return Entry{T: at(m), Key: key, Answer: via, Choice: choice, Refused: refused}
}

func TestFoldSpans(t *testing.T) {
	entries := []Entry{
		{T: at(-30), Key: "a", Host: "devbox", Agent: "codex", Project: "/src/old", State: "working"},
		{T: at(10), Key: "a", Project: "/src/api", Name: "auth", State: "compacting"},
		waiting(20, "a", "Bash: ls"),
		st(25, "a", "working"),
		st(40, "a", "ready"),
		st(70, "a", "working"), // after the period
	}
	h := Fold(entries, at(0), at(60))
	if len(h.Timelines) != 1 {
		t.Fatalf("%d timelines, want 1", len(h.Timelines))
	}
	tl := h.Timelines[0]
	want := []Span{{at(0), at(10), "working"}, {at(10), at(20), "compacting"}, {at(20), at(25), "waiting"},
		{at(25), at(40), "working"}, {at(40), at(60), "ready"}}
	if len(tl.Spans) != len(want) {
		t.Fatalf("spans %v, want %v", tl.Spans, want)
	}
	for i, s := range tl.Spans {
		if !s.From.Equal(want[i].From) || !s.To.Equal(want[i].To) || s.State != want[i].State {
			t.Errorf("span %d: %v, want %v", i, s, want[i])
		}
	}
	if tl.Stats.Working != min_(35) || tl.Stats.Waiting != min_(5) || tl.Stats.Waits != 1 {
		t.Errorf("stats %+v, want 35m working, 5m waiting, 1 wait", tl.Stats)
	}
	if tl.Key != "a" || tl.Host != "devbox" || tl.Agent != "codex" || tl.Project != "/src/api" || tl.Name != "auth" {
		t.Errorf("timeline %+v: want the newest of each name", tl)
	}
	if tl.Last.State != "ready" || !tl.Last.T.Equal(at(40)) {
		t.Errorf("last %+v, want ready at 40", tl.Last)
	}
	if h.Total.Working != min_(35) || h.Total.Waiting != min_(5) || h.Total.Waits != 1 || !h.From.Equal(at(0)) || !h.To.Equal(at(60)) {
		t.Errorf("history %+v", h)
	}
}

func TestFoldWaitEnds(t *testing.T) {
	tests := []struct {
		name    string
		after   []Entry // entries after the wait began at minute 10, for "Bash: rm"
		how     string
		to      float64
		choice  string
		waits   int // the waits there are, when not 1
		waiting time.Duration
	}{
		{"answered in the terminal", []Entry{st(12, "a", "working")}, EndTerminal, 12, "", 1, min_(2)},
		{"Esc", []Entry{{T: at(12), Key: "a", State: "ready", ByClaude: true}}, EndEsc, 12, "", 1, min_(2)},
		{"the turn ended on it (another agent's No)", []Entry{st(12, "a", "ready")}, EndEsc, 12, "", 1, min_(2)},
		{"working by Claude", []Entry{{T: at(12), Key: "a", State: "working", ByClaude: true}}, EndTerminal, 12, "", 1, min_(2)},
		{"the session ended", []Entry{st(12, "a", Ended)}, EndSession, 12, "", 1, min_(2)},
		{"still open", nil, EndOpen, 60, "", 1, min_(50)},
		{"from the tray", []Entry{answered(11.5, "a", ViaTray, "Allow", false), st(11.6, "a", "working")},
			EndTray, 11.5, "Allow", 1, min_(1.6)},
		{"hud answer in the slack", []Entry{st(12, "a", "working"), answered(12+4.0/60, "a", ViaCommand, "Yes", false)},
			EndCommand, 12, "Yes", 1, min_(2)},
		{"an answer past the slack", []Entry{st(12, "a", "working"), answered(12+6.0/60, "a", ViaTray, "Yes", false)},
			EndTerminal, 12, "", 1, min_(2)},
		{"refused", []Entry{answered(11, "a", ViaTray, "No", true), st(11.1, "a", "ready")}, EndRefused, 11, "No", 1, min_(1.1)},
		{"another session's answer", []Entry{answered(11, "b", ViaTray, "Allow", false), st(12, "a", "working")},
			EndTerminal, 12, "", 1, min_(2)},
		{"answered, then the session ended", []Entry{answered(11, "a", ViaTray, "Allow", false), st(11.1, "a", Ended)},
			EndSession, 11.1, "", 1, min_(1.1)},
		{"an open wait answered", []Entry{answered(15, "a", ViaTray, "Allow", false)}, EndTray, 15, "Allow", 1, min_(50)},
		{"another question", []Entry{waiting(13, "a", "Edit: main.go"), st(14, "a", "working")}, EndTerminal, 13, "", 2, min_(4)},
	}
	for _, tt := range tests {
		// An answer before the wait began is never its answer.
		entries := []Entry{st(0, "a", "working"), answered(9, "a", ViaTray, "Early", false), waiting(10, "a", "Bash: rm")}
		h := Fold(append(entries, tt.after...), at(0), at(60))
		if len(h.Timelines) != 1 || len(h.Timelines[0].Waits) != tt.waits {
			t.Errorf("%s: %+v, want one timeline with %d waits", tt.name, h.Timelines, tt.waits)
			continue
		}
		tl := h.Timelines[0]
		w := tl.Waits[0]
		if w.How != tt.how || !w.To.Equal(at(tt.to)) || w.Choice != tt.choice || !w.From.Equal(at(10)) || w.For != "Bash: rm" {
			t.Errorf("%s: wait %+v, want %s at %v, choice %q", tt.name, w, tt.how, at(tt.to), tt.choice)
		}
		if w.Open() != (tt.how == EndOpen) || w.Response() != w.To.Sub(w.From) {
			t.Errorf("%s: Open %v, Response %v", tt.name, w.Open(), w.Response())
		}
		if tl.Stats.Waiting != tt.waiting || tl.Stats.Waits != tt.waits {
			t.Errorf("%s: waited %v in %d waits, want %v in %d", tt.name, tl.Stats.Waiting, tl.Stats.Waits, tt.waiting, tt.waits)
		}
	}
}

func TestFoldSecondQuestion(t *testing.T) {
	h := Fold([]Entry{waiting(10, "a", "Bash: rm"), waiting(13, "a", "Edit: main.go"), st(14, "a", "working")}, at(0), at(60))
	w := h.Timelines[0].Waits
	if len(w) != 2 || w[1].For != "Edit: main.go" || !w[1].From.Equal(at(13)) || !w[1].To.Equal(at(14)) || w[1].How != EndTerminal {
		t.Errorf("waits %+v, want the second one from 13 to 14, for Edit", w)
	}
}

func TestFoldCountsWaitsWhereTheyBegan(t *testing.T) {
	entries := []Entry{
		waiting(-20, "a", "done before"), st(-15, "a", "working"),
		waiting(-5, "a", "across from"), st(5, "a", "working"),
		waiting(30, "a", "inside"), st(32, "a", "working"),
		waiting(58, "a", "across to"), st(65, "a", "working"),
	}
	h := Fold(entries, at(0), at(60))
	var fors []string
	for _, w := range h.Timelines[0].Waits {
		fors = append(fors, w.For+":"+w.How)
	}
	if got := len(fors); got != 3 || fors[0] != "across from:terminal" || fors[1] != "inside:terminal" || fors[2] != "across to:still open" {
		t.Errorf("waits %v, want across from, inside, across to (open)", fors)
	}
	s := h.Timelines[0].Stats
	// The wait that began before from is shown but not counted.
	if s.Waits != 2 || s.Waiting != min_(5+2+2) || s.Longest != min_(2) || s.LongestFor != "inside" || h.Total.Waits != 2 {
		t.Errorf("stats %+v, total %+v; want 2 waits, 9m waiting, the longest answered inside", s, h.Total)
	}
}

func TestFoldResponses(t *testing.T) {
	var entries []Entry
	// Session a waits 1..6 minutes, b 7..10; b's last wait is open.
	for i := 1; i <= 10; i++ {
		key := "a"
		if i > 6 {
			key = "b"
		}
		from := float64(i * 20)
		entries = append(entries, waiting(from, key, fmt.Sprint("q", i)), st(from+float64(i), key, "working"))
	}
	entries = append(entries, waiting(300, "b", "open"))
	h := Fold(entries, at(0), at(400))
	if len(h.Timelines) != 2 {
		t.Fatalf("%d timelines", len(h.Timelines))
	}
	a, b, tot := h.Timelines[0].Stats, h.Timelines[1].Stats, h.Total
	// Nearest rank: the median of 1..6 is the 3rd, p90 the 6th.
	if a.Waits != 6 || a.Median != min_(3) || a.P90 != min_(6) || a.Longest != min_(6) || a.LongestFor != "q6" {
		t.Errorf("a: %+v", a)
	}
	if b.Waits != 5 || b.Median != min_(8) || b.P90 != min_(10) || b.Longest != min_(10) || b.LongestFor != "q10" {
		t.Errorf("b: %+v", b)
	}
	if tot.Waits != 11 || tot.Median != min_(5) || tot.P90 != min_(9) || tot.Longest != min_(10) || tot.LongestFor != "q10" {
		t.Errorf("total: %+v", tot)
	}
	if tot.Waiting != a.Waiting+b.Waiting || tot.Waiting != min_(55+100) {
		t.Errorf("total waiting %v, want %v", tot.Waiting, min_(155))
	}
}

func TestPercentile(t *testing.T) {
	m := func(ns ...float64) []time.Duration {
		var d []time.Duration
		for _, n := range ns {
			d = append(d, min_(n))
		}
		return d
	}
	tests := []struct {
		d           []time.Duration
		median, p90 time.Duration
	}{
		{m(7), min_(7), min_(7)},
		{m(1, 2), min_(1), min_(2)},
		{m(1, 2, 3), min_(2), min_(3)},
		{m(1, 2, 3, 4), min_(2), min_(4)},
		{m(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), min_(5), min_(9)},
		{m(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), min_(6), min_(10)},
	}
	for _, tt := range tests {
		if got, p := percentile(tt.d, 50), percentile(tt.d, 90); got != tt.median || p != tt.p90 {
			t.Errorf("%v: median %v, p90 %v; want %v, %v", tt.d, got, p, tt.median, tt.p90)
		}
	}
}

func TestFoldLeavesOutAndAbsences(t *testing.T) {
	entries := []Entry{
		st(-50, "gone", "working"), st(-40, "gone", Ended),
		st(-10, "idle", "ready"),
		st(70, "later", "working"),
		st(-5, "short", "working"), st(0, "short", Ended),
		{T: at(-10), Away: at(-20)},                // before
		{T: at(10), Away: at(-10)},                 // across from
		{T: at(30), Away: at(20)},                  // inside
		{T: at(90), Away: at(50)},                  // across to
		{T: at(0), Away: at(-5)},                   // ends at from
		{T: at(80), Away: at(60)},                  // begins at to
		answered(30, "nobody", ViaTray, "", false), // an answer alone makes no timeline
	}
	h := Fold(entries, at(0), at(60))
	if len(h.Timelines) != 1 || h.Timelines[0].Key != "idle" || h.Timelines[0].Spans[0].State != "ready" {
		t.Errorf("timelines %+v, want idle's alone", h.Timelines)
	}
	want := []Span{{at(0), at(10), "away"}, {at(20), at(30), "away"}, {at(50), at(60), "away"}}
	if len(h.Absences) != len(want) {
		t.Fatalf("absences %v, want %v", h.Absences, want)
	}
	for i, s := range h.Absences {
		if !s.From.Equal(want[i].From) || !s.To.Equal(want[i].To) || s.State != "away" {
			t.Errorf("absence %d: %v, want %v", i, s, want[i])
		}
	}
	if e := Fold(nil, at(0), at(60)); len(e.Timelines) != 0 || e.Total != (Stats{}) {
		t.Errorf("Fold of nothing: %+v", e)
	}
}

// TestFoldOneAnswerOneWait: an answer ends the one wait it answered, not
// also the one before it whose slack it falls in.
func TestFoldOneAnswerOneWait(t *testing.T) {
	tests := []struct {
		name   string
		answer float64
		hows   string
	}{
		{"the second question answered", 12 + 2.0/60, "terminal tray"},
		{"the first question answered as it changed", 12, "tray terminal"},
		{"the first answered just before", 11.9, "tray terminal"},
	}
	for _, tt := range tests {
		h := Fold([]Entry{waiting(10, "a", "Bash: rm"), waiting(12, "a", "Edit: main.go"),
			answered(tt.answer, "a", ViaTray, "Allow", false), st(12.1, "a", "working")}, at(0), at(60))
		w := h.Timelines[0].Waits
		if len(w) != 2 || w[0].How+" "+w[1].How != tt.hows {
			t.Errorf("%s: waits %+v, want them ended %s", tt.name, w, tt.hows)
		}
	}
}

// Claude's own file says a session waits a moment before the hook names
// the dialog: one dialog, one wait, named as the hook names it. A second
// dialog the hook names is a second wait.
func TestFoldOneDialogOneWait(t *testing.T) {
	entries := []Entry{
		st(0, "a", "working"),
		{T: at(10), Key: "a", State: "waiting", For: "permission prompt", ByClaude: true},
		{T: at(10).Add(40 * time.Millisecond), Key: "a", State: "waiting", For: "Bash: rm -rf build"},
		waiting(11, "a", "Edit: main.go"),
		st(12, "a", "working"),
		{T: at(20), Key: "a", State: "waiting", For: "input needed", ByClaude: true},
		st(21, "a", "working"),
	}
	h := Fold(entries, at(0), at(60))
	var got []string
	for _, w := range h.Timelines[0].Waits {
		got = append(got, fmt.Sprintf("%s %s %v", w.For, w.How, w.Response()))
	}
	want := []string{"Bash: rm -rf build terminal 1m0s", "Edit: main.go terminal 1m0s", "input needed terminal 1m0s"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("waits %q, want %q", got, want)
	}
}
