package breaks

import (
	"errors"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// Scheduler is the break reminders as the tray and `hud break` use them:
// every method takes the lock, reads the files, applies a rule and saves,
// so the tray, the CLI and the hooks of every Claude session agree.
//
// The tray drives it with one timer and no polling:
//
//	fire, next, err := sched.Tick(now, sessions)
//	// show fire if non-nil; arm the timer for next (zero: no timer);
//	// call Tick again when it expires or when the sessions change.
type Scheduler struct {
	Files    Files
	Settings Settings
}

// NewScheduler returns a Scheduler for the files under layout.
func NewScheduler(layout paths.Layout, set Settings, logf func(string, ...any)) *Scheduler {
	return &Scheduler{Files: Files{Layout: layout, Logf: logf}, Settings: set}
}

// Tick fires the reminder that is due now, if any, and returns when to
// call again (zero: only when the sessions change). The decision is taken
// under the lock, so two processes never fire within the dedup window.
func (s *Scheduler) Tick(now time.Time, sess Sessions) (fired *Reminder, next time.Time, err error) {
	err = s.Files.Update(now, func(t *Txn) error {
		t.Prefs = t.Prefs.pruned(&t.State, now)
		plan := PlanAt(t.State, t.Prefs, now, sess, s.Settings)
		next = plan.Next
		if !plan.Fire {
			return nil
		}
		fired = s.fire(t, plan, now)
		// The next decision: the plan after this reminder.
		next = PlanAt(t.State, t.Prefs, now, sess, s.Settings).Next
		return nil
	})
	return fired, next, err
}

// TakeBreakNow fires the next reminder at once ("Take a break now"),
// whatever snooze, pause or quiet hours say: the person asked for it. It
// ends a snooze.
func (s *Scheduler) TakeBreakNow(now time.Time) (*Reminder, error) {
	var fired *Reminder
	err := s.Files.Update(now, func(t *Txn) error {
		plan := PlanAt(t.State, t.Prefs, now, Sessions{}, s.Settings)
		t.Prefs.SnoozedUntil = 0
		plan.Early, plan.Horizon = false, now
		fired = s.fire(t, plan, now)
		return nil
	})
	return fired, err
}

// fire delivers plan's reminder. The lower kinds due by the plan's
// horizon are covered by it too: they would be delivered (early) as soon
// as the dedup window ends, a second reminder half a minute after the
// first (the early window is minutes wide).
func (s *Scheduler) fire(t *Txn, plan Plan, now time.Time) *Reminder {
	tip := t.State.fire(plan.Kind, now, s.Settings)
	t.State.coverLower(plan.Kind, plan.Horizon, now, s.Settings)
	delete(t.Prefs.Skipped, plan.Kind.String())
	return newReminder(plan.Kind, plan.Due, now, plan.Early, tip, s.Settings)
}

// Snooze postpones every reminder by d from now.
func (s *Scheduler) Snooze(now time.Time, d time.Duration) error {
	if d <= 0 {
		return errors.New("snooze for a positive duration")
	}
	return s.Files.Update(now, func(t *Txn) error {
		t.Prefs.SnoozedUntil = SecondsOf(now.Add(d))
		return nil
	})
}

// Skip drops the next reminder (the one due now, or the next to come): the
// next of its kind comes one interval later. It returns what it skipped.
func (s *Scheduler) Skip(now time.Time, sess Sessions) (Kind, time.Time, error) {
	var kind Kind
	var due time.Time
	err := s.Files.Update(now, func(t *Txn) error {
		plan := PlanAt(t.State, t.Prefs, now, sess, s.Settings)
		kind, due = plan.Kind, plan.Due
		if t.Prefs.Skipped == nil {
			t.Prefs.Skipped = map[string]Seconds{}
		}
		t.Prefs.Skipped[kind.String()] = SecondsOf(due)
		return nil
	})
	return kind, due, err
}

// Pause stops reminders until the given time (see Tomorrow).
func (s *Scheduler) Pause(now, until time.Time) error {
	if !until.After(now) {
		return errors.New("pause until a time in the future")
	}
	return s.Files.Update(now, func(t *Txn) error {
		t.Prefs.PausedUntil = SecondsOf(until)
		return nil
	})
}

// Resume ends a pause and a snooze.
func (s *Scheduler) Resume(now time.Time) error {
	return s.Files.Update(now, func(t *Txn) error {
		t.Prefs.PausedUntil, t.Prefs.SnoozedUntil = 0, 0
		return nil
	})
}

// Tomorrow is the start of the day after now's, in now's location: "pause
// until tomorrow".
func Tomorrow(now time.Time) time.Time {
	y, m, d := now.Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, now.Location())
}

// pruned drops choices that no longer matter: a snooze or pause that
// ended, a skip of a reminder whose timer has moved past it.
func (p Prefs) pruned(s *State, now time.Time) Prefs {
	if p.SnoozedUntil != 0 && !now.Before(p.SnoozedUntil.Time()) {
		p.SnoozedUntil = 0
	}
	if p.PausedUntil != 0 && !now.Before(p.PausedUntil.Time()) {
		p.PausedUntil = 0
	}
	if len(p.Skipped) > 0 {
		skipped := make(map[string]Seconds, len(p.Skipped))
		for name, due := range p.Skipped {
			k, ok := ParseKind(name)
			if ok && due > *s.last(k) {
				skipped[name] = due
			}
		}
		p.Skipped = skipped
		if len(skipped) == 0 {
			p.Skipped = nil
		}
	}
	return p
}
