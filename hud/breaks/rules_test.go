package breaks

import (
	"testing"
	"time"
)

func TestSessionStartJoinsOrStartsFresh(t *testing.T) {
	set := DefaultSettings()
	old := Fresh(t0)
	old.ReminderCount = 3
	for _, tc := range []struct {
		name   string
		loaded bool
		idle   time.Duration
		joined bool
	}{
		{"just active", true, time.Minute, true},
		{"just under stale", true, set.StaleThreshold - time.Nanosecond, true},
		{"at stale", true, set.StaleThreshold, false},
		{"no file", false, time.Minute, false},
	} {
		s := old
		now := t0.Add(tc.idle)
		if got := OnSessionStart(&s, tc.loaded, now, set); got != tc.joined {
			t.Errorf("%s: joined = %v, want %v", tc.name, got, tc.joined)
		}
		if s.LastActive.Time().Sub(now).Abs() > time.Microsecond {
			t.Errorf("%s: last_active not now", tc.name)
		}
		if tc.joined && s.ReminderCount != 3 || !tc.joined && s != Fresh(now) {
			t.Errorf("%s: state %+v", tc.name, s)
		}
	}
}

func TestPromptCompliance(t *testing.T) {
	set := DefaultSettings()
	for _, k := range kinds {
		for _, tc := range []struct {
			gap      time.Duration
			complied bool
		}{
			{set.Duration[k] - time.Millisecond, false},
			{set.Duration[k], true},
		} {
			s := Fresh(t0)
			s.fire(k, t0.Add(25*time.Minute), set)
			answer := t0.Add(26 * time.Minute)
			OnStop(&s, answer)
			now := answer.Add(tc.gap)
			before := s
			out := OnPrompt(&s, now, set)
			if s.PendingBreak != nil {
				t.Errorf("%v: pending not cleared", k)
			}
			if (out.Complied != "") != tc.complied || (out.Missed != "") == tc.complied {
				t.Errorf("%v gap %v: outcome %+v", k, tc.gap, out)
			}
			for _, other := range kinds {
				reset := tc.complied && (other == k || k == Full)
				got := *s.last(other)
				if reset && got != SecondsOf(now) || !reset && got != *before.last(other) {
					t.Errorf("%v gap %v: timer %v = %v (reset %v)", k, tc.gap, other, got.Time(), reset)
				}
			}
		}
	}
}

func TestPromptGapCountsFromTheReminderWhenLater(t *testing.T) {
	// The answer ended, the person read for a while, the tray fired, and
	// they prompted 10 s later: that is no break.
	set := DefaultSettings()
	s := Fresh(t0)
	OnStop(&s, t0.Add(5*time.Minute))
	s.fire(Micro, t0.Add(20*time.Minute), set)
	out := OnPrompt(&s, t0.Add(20*time.Minute+10*time.Second), set)
	if out.Complied != "" || out.Missed != "micro" {
		t.Errorf("outcome %+v", out)
	}
}

func TestSpontaneousBreak(t *testing.T) {
	set := DefaultSettings()
	for _, tc := range []struct {
		gap  time.Duration
		want bool
	}{
		{set.GapThreshold - time.Millisecond, false},
		{set.GapThreshold, true},
	} {
		s := Fresh(t0)
		OnStop(&s, t0.Add(10*time.Minute))
		now := t0.Add(10*time.Minute + tc.gap)
		out := OnPrompt(&s, now, set)
		if out.Spontaneous != tc.want {
			t.Errorf("gap %v: spontaneous = %v", tc.gap, out.Spontaneous)
		}
		for _, k := range kinds {
			if got := *s.last(k) == SecondsOf(now); got != tc.want {
				t.Errorf("gap %v: timer %v reset = %v", tc.gap, k, got)
			}
		}
	}
}

func TestStalePromptStartsFresh(t *testing.T) {
	set := DefaultSettings()
	s := Fresh(t0)
	s.ReminderCount = 4
	if out := OnPrompt(&s, t0.Add(set.StaleThreshold-time.Second), set); out.Stale {
		t.Error("stale before the threshold")
	}
	s.LastActive = SecondsOf(t0)
	now := t0.Add(set.StaleThreshold)
	if out := OnPrompt(&s, now, set); !out.Stale || s != Fresh(now) {
		t.Errorf("at threshold: %+v, %+v", out, s)
	}
}

func TestPromptOlderThanTheLastAnswerChangesNothing(t *testing.T) {
	set := DefaultSettings()
	s := active(t0)
	s.PendingBreak = &PendingBreak{Type: Micro.String(), FiredAt: SecondsOf(t0)}
	s.LastResponseEnd = SecondsOf(t0.Add(10 * time.Minute))
	before := s
	if out := OnPrompt(&s, t0.Add(10*time.Minute-time.Millisecond), set); out != (PromptOutcome{}) || s != before {
		t.Errorf("a prompt before the last answer's end: %+v, state %+v; want nothing, %+v", out, s, before)
	}
}

func TestFireRecordsAndRotates(t *testing.T) {
	set := DefaultSettings()
	s := Fresh(t0)
	now := t0.Add(30 * time.Minute) // micro and hydration both due
	if tip := s.fire(Hydration, now, set); tip != 0 {
		t.Errorf("first tip = %d", tip)
	}
	// The micro break due at the same time was absorbed; the full break
	// was not due and keeps its time.
	if s.LastMicro != SecondsOf(now) || s.LastFull != SecondsOf(t0) {
		t.Errorf("after a water break: micro %v, full %v", s.LastMicro.Time(), s.LastFull.Time())
	}
	if tip := s.fire(Hydration, now.Add(time.Hour), set); tip != 1 {
		t.Errorf("second tip = %d", tip)
	}
	if s.ReminderCount != 2 || s.TipIndex != (TipIndex{Hydration: 2}) {
		t.Errorf("count %d, tips %+v", s.ReminderCount, s.TipIndex)
	}
	if s.PendingBreak == nil || s.PendingBreak.Type != "hydration" || s.LastReminderFiredAt != SecondsOf(now.Add(time.Hour)) {
		t.Errorf("pending %+v, last fired %v", s.PendingBreak, s.LastReminderFiredAt)
	}
}
