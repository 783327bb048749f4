package breaks

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

func TestSection(t *testing.T) {
	home := t.TempDir()
	seedState(t, home)
	var shown []string
	section := NewSection(NewScheduler(paths.Layout{Home: home}, DefaultSettings(), t.Logf),
		func(title, body string) { shown = append(shown, title) }, t.Logf)
	waitingNow := []resolver.Session{{State: store.StateWaiting}, {State: store.StateWorking}}
	workingNow := []resolver.Session{{State: store.StateWorking}}

	// Claude works: the next call is when the eye break enters the early
	// window.
	if next := section.Update(t0.Add(time.Minute), workingNow); !next.Equal(t0.Add(15 * time.Minute)) {
		t.Errorf("next = %v", next)
	}
	// At that moment a session waits: held.
	if next := section.Update(t0.Add(20*time.Minute), waitingNow); len(shown) != 0 || !next.IsZero() {
		t.Fatalf("while waiting: shown %q, next %v", shown, next)
	}
	rows, _ := section.Rows(t0.Add(20 * time.Minute))
	if rows[0].Label != "Eye break due — held while Claude waits on you" || len(rows) != 6 {
		t.Errorf("rows %+v", rows)
	}
	// Answered: delivered.
	section.Update(t0.Add(21*time.Minute), workingNow)
	if len(shown) != 1 || shown[0] != "Time for a 1m eye break" {
		t.Fatalf("after the answer: %q", shown)
	}
	select {
	case <-section.Changed():
	default:
		t.Error("no change signalled after a reminder")
	}
	// Menu actions.
	section.Clicked(KeySnooze, t0.Add(22*time.Minute))
	rows, _ = section.Rows(t0.Add(22 * time.Minute))
	if rows[0].Label != "Breaks snoozed until 10:32" || rows[2].Key != KeyResume {
		t.Errorf("snoozed rows %+v", rows)
	}
	section.Clicked(KeyResume, t0.Add(22*time.Minute))
	section.Clicked(KeyNow, t0.Add(23*time.Minute))
	if len(shown) != 2 {
		t.Errorf("take a break now: %q", shown)
	}
	section.Clicked(KeyPauseHour, t0.Add(23*time.Minute))
	if rows, _ := section.Rows(t0.Add(23 * time.Minute)); rows[0].Label != "Breaks paused until 11:23" {
		t.Errorf("paused rows %+v", rows)
	}
}

func TestLabelChangesAt(t *testing.T) {
	set := DefaultSettings()
	now := t0.Add(8*time.Minute + 10*time.Second) // 11 min 50 s to the eye break
	st := Status{Plan: PlanAt(active(now), Prefs{}, now, idle, set), Now: now}
	if st.MenuLine() != "Next: eye break in 12m" {
		t.Fatalf("line %q", st.MenuLine())
	}
	at := labelChangesAt(st)
	later := Status{Plan: PlanAt(active(now), Prefs{}, at, idle, set), Now: at}
	before := Status{Plan: PlanAt(active(now), Prefs{}, at.Add(-2*time.Millisecond), idle, set), Now: at.Add(-2 * time.Millisecond)}
	if later.MenuLine() != "Next: eye break in 11m" || before.MenuLine() != st.MenuLine() {
		t.Errorf("at %v: %q, just before: %q", at.Sub(now), later.MenuLine(), before.MenuLine())
	}
}
