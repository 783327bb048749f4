package breaks

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/internal/store"
)

var (
	idle    = Sessions{}
	working = Sessions{AnyWorking: true}
	waiting = Sessions{AnyWaiting: true}
	both    = Sessions{AnyWorking: true, AnyWaiting: true}
)

// active is a fresh state at t0 whose person was last active at at.
func active(at time.Time) State {
	s := Fresh(t0)
	s.LastActive = SecondsOf(at)
	s.LastResponseEnd = SecondsOf(at)
	return s
}

func TestDecide(t *testing.T) {
	set := DefaultSettings()
	micro := t0.Add(20 * time.Minute)
	hydration := t0.Add(30 * time.Minute)
	full := t0.Add(50 * time.Minute)
	ms := time.Millisecond
	for _, tc := range []struct {
		name  string
		state State
		prefs Prefs
		now   time.Time
		sess  Sessions
		fire  Kind
		none  bool // nothing fires
		early bool
		next  time.Time
	}{
		{name: "before the first interval", state: active(micro.Add(-time.Minute)), now: micro.Add(-ms), sess: idle, none: true, next: micro},
		{name: "micro at its interval", state: active(micro.Add(-time.Minute)), now: micro, sess: idle, fire: Micro},
		{name: "hydration over micro", state: active(hydration.Add(-time.Minute)), now: hydration, sess: idle, fire: Hydration},
		{name: "full over both", state: active(full.Add(-time.Minute)), now: full, sess: idle, fire: Full},
		{name: "full just before its time: micro and hydration due",
			state: active(full.Add(-time.Minute)), now: full.Add(-ms), sess: idle, fire: Hydration},

		{name: "held while waiting", state: active(micro), now: micro, sess: waiting, none: true},
		{name: "waiting wins over working", state: active(micro), now: micro, sess: both, none: true},
		{name: "waiting, nothing due yet: wake at due", state: active(t0), now: micro.Add(-time.Minute), sess: waiting, none: true, next: micro},

		{name: "early: working, due in exactly 5m", state: active(t0), now: micro.Add(-5 * time.Minute), sess: working, fire: Micro, early: true},
		{name: "early: working, due in 5m + 1 ms", state: active(t0), now: micro.Add(-5*time.Minute - ms), sess: working, none: true, next: micro.Add(-5 * time.Minute)},
		{name: "early: not working, not yet", state: active(t0), now: micro.Add(-5 * time.Minute), sess: idle, none: true, next: micro},
		{name: "early picks the higher kind in the window",
			state: active(hydration.Add(-10 * time.Minute)), now: full.Add(-4 * time.Minute), sess: working, fire: Full, early: true},

		{name: "away: idle past the gap threshold", state: active(micro.Add(-15 * time.Minute)), now: micro, sess: idle, none: true},
		{name: "just under the gap threshold", state: active(micro.Add(-15*time.Minute + ms)), now: micro, sess: idle, fire: Micro},
		{name: "watching Claude work is not away", state: active(t0), now: micro, sess: working, fire: Micro},

		{name: "dedup window", state: func() State {
			s := active(micro)
			s.LastReminderFiredAt = SecondsOf(micro.Add(-29 * time.Second))
			return s
		}(),
			now: micro, sess: idle, none: true, next: micro.Add(time.Second)},
		{name: "dedup window over", state: func() State {
			s := active(micro)
			s.LastReminderFiredAt = SecondsOf(micro.Add(-30 * time.Second))
			return s
		}(),
			now: micro, sess: idle, fire: Micro},

		{name: "snoozed", state: active(micro), prefs: Prefs{SnoozedUntil: SecondsOf(micro.Add(time.Minute))}, now: micro, sess: working, none: true, next: micro.Add(time.Minute)},
		{name: "snooze over", state: active(micro), prefs: Prefs{SnoozedUntil: SecondsOf(micro)}, now: micro, sess: idle, fire: Micro},
		{name: "paused", state: active(micro), prefs: Prefs{PausedUntil: SecondsOf(micro.Add(time.Hour))}, now: micro, sess: working, none: true, next: micro.Add(time.Hour)},
		{name: "skipped micro: next is hydration", state: active(micro), prefs: Prefs{Skipped: map[string]Seconds{"micro": SecondsOf(micro)}}, now: micro, sess: idle, none: true, next: hydration},
	} {
		fire, next := Decide(tc.state, tc.prefs, tc.now, tc.sess, set)
		switch {
		case tc.none && fire != nil:
			t.Errorf("%s: fired %v", tc.name, fire.Kind)
		case !tc.none && fire == nil:
			t.Errorf("%s: fired nothing (next %v)", tc.name, next)
		case !tc.none && (fire.Kind != tc.fire || fire.Early != tc.early):
			t.Errorf("%s: fired %v early=%v, want %v early=%v", tc.name, fire.Kind, fire.Early, tc.fire, tc.early)
		}
		if tc.none && !next.Equal(tc.next) {
			t.Errorf("%s: next = %v, want %v", tc.name, next, tc.next)
		}
	}
}

func TestQuietHours(t *testing.T) {
	set := DefaultSettings()
	var err error
	if set.Quiet, err = config.ParseQuietHours("10:15-10:45"); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(20 * time.Minute) // 10:20 UTC, micro due
	fire, next := Decide(active(now), Prefs{}, now, working, set)
	if fire != nil || !next.Equal(t0.Add(45*time.Minute)) {
		t.Errorf("in quiet hours: fire %v, next %v", fire, next)
	}
	after := t0.Add(45 * time.Minute)
	if fire, _ := Decide(active(after), Prefs{}, after, idle, set); fire == nil || fire.Kind != Hydration {
		t.Errorf("after quiet hours: %v", fire)
	}
}

func TestDisabledFiresNothing(t *testing.T) {
	set := DefaultSettings()
	set.Enabled = false
	now := t0.Add(time.Hour)
	if fire, next := Decide(active(now), Prefs{}, now, idle, set); fire != nil || !next.IsZero() {
		t.Errorf("disabled: %v, %v", fire, next)
	}
}

func TestHeldReminderComesWhenTheyAnswer(t *testing.T) {
	set := DefaultSettings()
	s := active(t0.Add(19 * time.Minute))
	due := t0.Add(20 * time.Minute)
	if fire, next := Decide(s, Prefs{}, due.Add(time.Minute), waiting, set); fire != nil || !next.IsZero() {
		t.Fatalf("while waiting: %v, next %v", fire, next)
	}
	// They answered the dialog: Claude works again. Still due, not dropped.
	if fire, _ := Decide(s, Prefs{}, due.Add(3*time.Minute), working, set); fire == nil || fire.Kind != Micro || fire.Early {
		t.Errorf("after the answer: %+v", fire)
	}
}

func TestSessionsOf(t *testing.T) {
	if got := SessionsOf(store.StateReady, store.StateCompacting); got != working {
		t.Errorf("compacting: %+v", got)
	}
	if got := SessionsOf(store.StateWaiting, store.StateWorking); got != both {
		t.Errorf("waiting+working: %+v", got)
	}
	if got := SessionsOf(); got != idle {
		t.Errorf("none: %+v", got)
	}
}

func TestMenuLine(t *testing.T) {
	set := DefaultSettings()
	now := t0.Add(8 * time.Minute)
	for _, tc := range []struct {
		plan Plan
		st   Status
		want string
	}{
		{st: Status{Plan: PlanAt(active(now), Prefs{}, now, idle, set), Now: now}, want: "Next: eye break in 12m"},
		{st: Status{Plan: PlanAt(active(now), Prefs{}, t0.Add(20*time.Minute), waiting, set), Now: t0.Add(20 * time.Minute)},
			want: "Eye break due — held while Claude waits on you"},
		{st: Status{Plan: Plan{Hold: Paused}, Now: now, PausedUntil: Tomorrow(now)}, want: "Breaks paused until tomorrow"},
		{st: Status{Plan: Plan{Hold: Snoozed}, Now: now, SnoozedUntil: now.Add(10 * time.Minute)}, want: "Breaks snoozed until 10:18"},
	} {
		if got := tc.st.MenuLine(); got != tc.want {
			t.Errorf("MenuLine = %q, want %q", got, tc.want)
		}
	}
}

func TestReminderText(t *testing.T) {
	r := newReminder(Micro, t0, t0, true, 9, DefaultSettings())
	if r.Title() != "Claude is busy — good moment for a 1m eye break" {
		t.Errorf("early title %q", r.Title())
	}
	if r.Tip == "" {
		t.Error("no tip")
	}
	for _, k := range kinds {
		if n := len(assets.Tips(k.TipCategory())); n < 6 {
			t.Errorf("%v: %d tips", k, n)
		}
	}
}

// A reminder delivered early stands in for the lower kinds that would come
// due within the early window too: otherwise the person gets a hydration
// break and, one dedup window later, an eye break they were just given.
func TestEarlyReminderCoversLowerKindsInTheWindow(t *testing.T) {
	home := t.TempDir()
	f := seedState(t, home)
	// Eye break due at t0+20m, hydration at t0+30m (Fresh at t0); set the
	// eye timer so it comes due 2 min after the hydration reminder fires.
	now := t0.Add(27 * time.Minute) // hydration due in 3 min: early
	if err := f.Update(t0, func(txn *Txn) error {
		txn.State.LastMicro = SecondsOf(now.Add(2*time.Minute - 20*time.Minute))
		txn.State.LastActive = SecondsOf(now)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sched := &Scheduler{Files: f, Settings: DefaultSettings()}
	fired, next, err := sched.Tick(now, working)
	if err != nil || fired == nil || fired.Kind != Hydration || !fired.Early {
		t.Fatalf("first tick: %+v, %v", fired, err)
	}
	// The eye timer restarted with the reminder: it enters the early
	// window 15 min from now, not when the dedup window ends.
	if want := now.Add(15 * time.Minute); !next.Equal(want) {
		t.Errorf("next = %v, want %v", next, want)
	}
	for _, at := range []time.Time{now.Add(30 * time.Second), now.Add(2 * time.Minute)} {
		if again, _, err := sched.Tick(at, working); err != nil || again != nil {
			t.Errorf("tick at +%v after an early hydration reminder: fired %+v, %v", at.Sub(now), again, err)
		}
	}
}
