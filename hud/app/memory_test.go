package app

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

type said struct{ title, body string }

func newMemory(t *testing.T, now *time.Time) (*Memory, *[]said) {
	t.Helper()
	var out []said
	m := &Memory{Dir: t.TempDir(), Now: func() time.Time { return *now }, Logf: t.Logf,
		Say: func(title, body string) { out = append(out, said{title, body}) }}
	return m, &out
}

// todayOf is m.Today, once the read it may have started is in.
func todayOf(t *testing.T, m *Memory, now time.Time, force bool) string {
	t.Helper()
	m.Today(now, force)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		m.mu.Lock()
		reading, line := m.reading, m.today
		m.mu.Unlock()
		if !reading {
			return line
		}
		if time.Now().After(deadline) {
			t.Fatal("the day's line was never read")
		}
	}
}

func TestMemoryToday(t *testing.T) {
	now := time.Date(2026, 11, 29, 15, 0, 0, 0, time.Local)
	m, _ := newMemory(t, &now)
	if got := todayOf(t, m, now, true); got != "" {
		t.Errorf("no ledger: Today = %q, want none", got)
	}
	at := func(h, min int) time.Time { return time.Date(2026, 11, 29, h, min, 0, 0, time.Local) }
	err := ledger.Append(m.Dir,
		ledger.Entry{T: at(9, 0), Key: "a", Project: "/p/api", State: "working"},
		ledger.Entry{T: at(9, 10), Key: "a", State: "waiting", For: "Bash: ls"},
		ledger.Entry{T: at(9, 11), Key: "a", State: "working"},
		ledger.Entry{T: at(10, 0), Key: "a", State: "waiting", For: "Bash: rm -rf build"},
		ledger.Entry{T: at(10, 20), Key: "a", State: "working"},
		ledger.Entry{T: at(11, 0), Key: "a", State: "ready"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := todayOf(t, m, now, false); got != "" {
		t.Errorf("within todayFresh: Today = %q, want the cached line", got)
	}
	want := "Today: agents waited 21m on you · 2 times · median 1m"
	if got := todayOf(t, m, now, true); got != want {
		t.Errorf("Today = %q, want %q", got, want)
	}
	// An answer from the tray is news at once.
	m.Answered(answer.Request{Session: "a"}, answer.Choice{Key: answer.Allow, Label: "Yes"}, answer.ByTray)
	entries, _, _ := ledger.Read(m.Dir, now.Add(-time.Hour), now)
	last := entries[len(entries)-1]
	if !last.IsAnswer() || last.Answer != ledger.ViaTray || last.Choice != "Yes" || last.Refused {
		t.Errorf("answer recorded as %+v", last)
	}
}

func TestMemoryRecordsRemoteSessionsOnly(t *testing.T) {
	now := time.Date(2026, 11, 29, 15, 0, 0, 0, time.Local)
	m, _ := newMemory(t, &now)
	views := []view.Session{
		{Key: "l1", SessionID: "l1", State: store.StateWorking, Since: now},
		{Key: "r1", SessionID: "r1", State: store.StateWaiting, WaitingFor: "Bash: make", Since: now, Host: "devbox"},
	}
	m.Observe(now, views, nil)
	now = now.Add(time.Minute)
	m.Observe(now, views[:1], nil)
	entries, _, _ := ledger.Read(m.Dir, now.Add(-time.Hour), now)
	var got []string
	for _, e := range entries {
		got = append(got, e.Key+" "+e.State)
	}
	if strings.Join(got, ", ") != "devbox/r1 waiting, devbox/r1 ended" {
		t.Errorf("recorded %q", got)
	}
}

func TestMemoryBack(t *testing.T) {
	at := func(h, min int) time.Time { return time.Date(2026, 11, 29, h, min, 0, 0, time.Local) }
	now := at(10, 40)
	m, out := newMemory(t, &now)
	m.Recap = func(key string, since time.Time) string {
		if key == "api" && since.Equal(at(10, 0)) {
			return "Refactored auth;\nall tests pass"
		}
		return ""
	}
	five := func(p float64) []view.Account {
		return []view.Account{{Name: "~/.claude", Account: resolver.Account{FiveHour: &resolver.RateLimit{UsedPercent: p}}}}
	}
	m.Observe(at(9, 59), nil, five(40))
	m.Observe(at(10, 30), nil, five(62))
	err := ledger.Append(m.Dir,
		ledger.Entry{T: at(9, 50), Key: "api", Project: "/p/api", State: "working", Commits: 1},
		ledger.Entry{T: at(10, 20), Key: "api", Project: "/p/api", State: "ready", Commits: 4},
		ledger.Entry{T: at(9, 55), Key: "web", Project: "/p/web", State: "working"},
		ledger.Entry{T: at(10, 26), Key: "web", Project: "/p/web", State: "waiting", For: "Bash: rm -rf build"},
		ledger.Entry{T: at(9, 0), Key: "docs", Project: "/p/docs", State: "ready"},
	)
	if err != nil {
		t.Fatal(err)
	}
	m.Back(at(10, 0), at(10, 40))
	if len(*out) != 1 {
		t.Fatalf("said %d notifications, want 1: %+v", len(*out), *out)
	}
	got := (*out)[0]
	want := said{"While you were away (40m)",
		"web: waits since 10:26 (14m) for Bash: rm -rf build · api: finished · Refactored auth; all tests pass · 3 commits · ~/.claude: 5-hour limit 40% → 62%"}
	if got != want {
		t.Errorf("said\n %+v\nwant\n %+v", got, want)
	}
	entries, _, _ := ledger.Read(m.Dir, at(9, 0), at(11, 0))
	if last := entries[len(entries)-1]; !last.IsAbsence() || !last.Away.Equal(at(10, 0)) || !last.T.Equal(at(10, 40)) {
		t.Errorf("absence recorded as %+v", last)
	}

	// A wait goes on: told again on the next return.
	now = at(12, 0)
	m.Back(at(11, 0), at(12, 0))
	if len(*out) != 2 || (*out)[1].body != "web: waits since 10:26 (1h 34m) for Bash: rm -rf build" {
		t.Errorf("the second absence was told as %+v", (*out)[1:])
	}

	// Nothing happened: recorded, not told.
	quiet, told := newMemory(t, &now)
	ledger.Append(quiet.Dir, ledger.Entry{T: at(9, 0), Key: "docs", Project: "/p/docs", State: "ready"})
	quiet.Back(at(11, 0), at(12, 0))
	entries, _, _ = ledger.Read(quiet.Dir, at(9, 0), at(12, 0))
	if len(*told) != 0 || len(entries) != 2 || !entries[1].IsAbsence() {
		t.Errorf("an empty absence: told %+v, recorded %+v", *told, entries)
	}
}

// The day's line heads the section, and is read again when the menu
// opens.
func TestTodayLineInTheMenu(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		time.Sleep(2 * time.Minute) // the bubble's clock starts at midnight
		now := time.Now()
		m, _ := newMemory(t, &now)
		m.Now = time.Now
		sec := &fakeSection{changed: make(chan struct{}), label: "Next break in 20m"}
		day := startOfDay(now)
		ledger.Append(m.Dir, ledger.Entry{T: day, Key: "a", State: "working"})
		h := start(t, Options{Section: sec, Memory: m}, &world{})
		defer h.stop(t)
		if got := sectionLabels(h.ui.menu); got != "Today: no agent waited on you|Next break in 20m" {
			t.Fatalf("section %q", got)
		}
		ledger.Append(m.Dir, ledger.Entry{T: day.Add(time.Second), Key: "a", State: "waiting"},
			ledger.Entry{T: day.Add(41 * time.Second), Key: "a", State: "working"})
		h.ui.events <- Event{Kind: MenuOpened}
		synctest.Wait()
		if got := sectionLabels(h.ui.menu); got != "Today: agents waited 40s on you · 1 time · median 40s|Next break in 20m" {
			t.Errorf("after the menu opened: section %q", got)
		}
	})
}

func sectionLabels(m Menu) string {
	var out []string
	for _, r := range m.Section {
		out = append(out, r.Label)
	}
	return strings.Join(out, "|")
}
