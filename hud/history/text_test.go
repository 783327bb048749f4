package history

import (
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/ledger"
)

// day is Saturday 28 November 2026, 09:00 UTC; now is the next day.
var (
	day = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	now = time.Date(2026, 11, 29, 13, 44, 0, 0, time.UTC)
)

// at is m minutes after day's 09:00.
func at(m int) time.Time { return day.Add(time.Duration(m) * time.Minute) }

func span(from, to int, state string) ledger.Span {
	return ledger.Span{From: at(from), To: at(to), State: state}
}

// sample is a past day of two sessions, 09:00 to 12:00: five-minute cells.
func sample() ledger.History {
	midnight := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	api := ledger.Timeline{Key: "s1", Project: "/home/me/api", Name: "auth refactor",
		Spans: []ledger.Span{span(0, 30, "working"), span(30, 32, "waiting"), span(32, 60, "working"),
			span(60, 62, "compacting"), span(62, 90, "ready"), span(90, 120, "working"), span(120, 134, "waiting"), span(134, 180, "working")},
		Waits: []ledger.Wait{{From: at(30), To: at(32), For: "Bash: go test", How: ledger.EndTerminal},
			{From: at(120), To: at(134), For: "Bash: rm -rf build", How: ledger.EndTray}},
		Stats: ledger.Stats{Working: 134 * time.Minute, Waiting: 16 * time.Minute, Waits: 2,
			Median: 2 * time.Minute, P90: 14 * time.Minute, Longest: 14 * time.Minute, LongestFor: "Bash: rm -rf build"}}
	docs := ledger.Timeline{Key: "s2", Agent: "codex", Project: "/home/me/docs",
		Spans: []ledger.Span{span(60, 90, "working"), span(90, 150, "ready")},
		Stats: ledger.Stats{Working: 30 * time.Minute}}
	return ledger.History{From: midnight, To: midnight.AddDate(0, 0, 1), Timelines: []ledger.Timeline{api, docs},
		Total:    ledger.Stats{Working: 164 * time.Minute, Waiting: 16 * time.Minute, Waits: 2, Median: 2 * time.Minute, P90: 14 * time.Minute, Longest: 14 * time.Minute, LongestFor: "Bash: rm -rf build"},
		Absences: []ledger.Span{span(65, 85, "away")}}
}

func render(t *testing.T, h ledger.History, o Options) []string {
	t.Helper()
	var b strings.Builder
	if err := Text(&b, h, o); err != nil {
		t.Fatal(err)
	}
	return strings.Split(b.String(), "\n")
}

func TestTextRows(t *testing.T) {
	lines := render(t, sample(), Options{Now: now, Width: 100})
	want := []string{
		"Sat 28 Nov, 09:00–12:00",
		"",
		"                        09          10          11",
		// 09:30–09:32 waits: its cell shows "!" though it also worked;
		// 10:00–10:02 compacts in a cell that was ready after.
		"api · auth refactor     ██████!█████▒·····██████!!!█████████",
		"docs (Codex)                        ██████············",
		"you, away                            ────",
		"",
		"                         working  waiting on you  waits  median     p90  longest",
		"api · auth refactor       2h 14m             16m      2      2m     14m  14m for Bash: rm -rf build",
		"docs (Codex)                 30m               –      0       –       –  –",
		"Total                     2h 44m             16m      2      2m     14m  14m for Bash: rm -rf build",
		"",
		"█ working   ! waiting on you   ▒ compacting   · ready   ─ you away",
		"median, p90, longest: how long a wait took to be answered",
		"",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %q\nwant %q", i, lines[i], want[i])
		}
	}
}

// A cell shows the state that matters most of those it holds.
func TestTextCellPriority(t *testing.T) {
	for _, c := range []struct {
		states []string
		want   string
	}{
		{[]string{"ready", "working"}, "█"},
		{[]string{"working", "compacting", "ready"}, "▒"},
		{[]string{"ready", "compacting", "waiting", "working"}, "!"},
		{[]string{"ready"}, "·"},
		{[]string{"idle"}, ""},
	} {
		var spans []ledger.Span
		for i, s := range c.states {
			spans = append(spans, ledger.Span{From: at(60).Add(time.Duration(i) * time.Minute), To: at(60).Add(time.Duration(i+1) * time.Minute), State: s})
		}
		h := ledger.History{From: at(0), To: at(120), Timelines: []ledger.Timeline{{Key: "k", Name: "n", Spans: spans}}}
		// At width 30 the names take 10 columns; the frame starts at
		// 10:00, with the states all in its first cell.
		row := []rune(render(t, h, Options{Now: now, Width: 30})[3] + strings.Repeat(" ", 10))
		if got := strings.TrimSpace(string(row[10:])); got != c.want {
			t.Errorf("%v: cell %q, want %q (row %q)", c.states, got, c.want, row)
		}
	}
}

func TestTextColor(t *testing.T) {
	plain := strings.Join(render(t, sample(), Options{Now: now, Width: 100}), "\n")
	if strings.Contains(plain, "\x1b") {
		t.Errorf("escape sequences without Color:\n%q", plain)
	}
	colored := render(t, sample(), Options{Now: now, Width: 100, Color: true})
	for _, want := range []string{"\x1b[32m██████\x1b[0m", "\x1b[1;31m!\x1b[0m", "\x1b[34m▒\x1b[0m"} {
		if !strings.Contains(colored[3], want) {
			t.Errorf("row %q lacks %q", colored[3], want)
		}
	}
}

// Names and subjects come from a file others write: no escape sequence or
// line break reaches the terminal, and a long one is cut to its column.
func TestTextUntrusted(t *testing.T) {
	h := sample()
	h.Timelines[0].Name = "evil\x1b]0;pwned\x07\nname that goes on and on"
	h.Timelines[0].Stats.LongestFor = "Bash: echo \x1b[2J\nrm -rf /"
	out := strings.Join(render(t, h, Options{Now: now, Width: 100}), "\n")
	if strings.Contains(out, "\x1b") || strings.Contains(out, "pwned\x07") {
		t.Errorf("an escape reached the output:\n%q", out)
	}
	if !strings.Contains(out, "\napi · evil name that g… ██") {
		t.Errorf("the name is not cut to its column:\n%s", out)
	}
	if !strings.Contains(out, "14m for Bash: echo rm -rf /\n") {
		t.Errorf("the subject is not on one line:\n%s", out)
	}
}

func TestTextEmpty(t *testing.T) {
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		from, to time.Time
		want     string
	}{
		{today, now, "No sessions recorded today. The ledger is written while agents run (docs/history.md)."},
		{today.AddDate(0, 0, -1), today, "No sessions recorded on Sat 28 Nov. The ledger"},
		{today.AddDate(-1, 0, -1), today.AddDate(-1, 0, 0), "No sessions recorded on Fri 28 Nov 2025."},
		{now.Add(-8 * time.Hour), now, "No sessions recorded in the last 8h."},
	} {
		got := render(t, ledger.History{From: c.from, To: c.to}, Options{Now: now, Width: 100})
		if len(got) != 2 || !strings.HasPrefix(got[0], c.want) {
			t.Errorf("%v–%v: %q, want %q", c.from, c.to, got, c.want)
		}
	}
}

func TestHeading(t *testing.T) {
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		from, to time.Time
		spans    []ledger.Span
		want     string
	}{
		{today, now, []ledger.Span{{From: today.Add(9 * time.Hour), To: now, State: "working"}}, "Today, 09:00–13:44"},
		{now.Add(-8 * time.Hour), now, []ledger.Span{{From: now.Add(-8 * time.Hour), To: now, State: "working"}}, "Last 8h, 05:00–13:44"},
		{today.AddDate(0, 0, -1), today, []ledger.Span{span(0, 90, "working")}, "Sat 28 Nov, 09:00–11:00"},
		{now.Add(-72 * time.Hour), now, []ledger.Span{span(0, 90, "working")}, "Last 3d, Sat 28 Nov 09:00 – Sun 29 Nov 13:44"},
	} {
		h := ledger.History{From: c.from, To: c.to, Timelines: []ledger.Timeline{{Key: "k", Spans: c.spans}}}
		if got := render(t, h, Options{Now: now, Width: 100})[0]; got != c.want {
			t.Errorf("heading %q, want %q", got, c.want)
		}
	}
}

// Over days, midnight is labelled with the day's name, and labels never
// run into each other.
func TestAxisOverDays(t *testing.T) {
	h := ledger.History{From: now.Add(-72 * time.Hour), To: now, Timelines: []ledger.Timeline{{Key: "k", Spans: []ledger.Span{span(0, 90, "working")}}}}
	axis := render(t, h, Options{Now: now, Width: 100})[2]
	if !strings.Contains(axis, "Sun") || strings.Contains(axis, "Sun 0") {
		t.Errorf("axis %q", axis)
	}
}
