package breaks

import (
	"fmt"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
)

// Status is what the tray's menu and `hud break status` show.
type Status struct {
	Plan
	Now                       time.Time
	PausedUntil, SnoozedUntil time.Time
	// Pending is the last reminder, until the next prompt checks whether
	// the person took it.
	Pending       *PendingBreak
	ReminderCount int
	// DueAt is when each kind comes due, after skips (index: Kind).
	DueAt [3]time.Time
	// Recorded is false until the hook recorded any activity.
	Recorded bool
}

// Status reads the files (without the lock: a look, not a change) and
// plans as Tick would.
func (s *Scheduler) Status(now time.Time, sess Sessions) Status {
	t := s.Files.Read(now)
	t.Prefs = t.Prefs.pruned(&t.State, now)
	var due [3]time.Time
	for _, k := range kinds {
		due[k] = t.Prefs.dueAt(&t.State, k, s.Settings)
	}
	return Status{
		DueAt:         due,
		Recorded:      t.Loaded,
		Plan:          PlanAt(t.State, t.Prefs, now, sess, s.Settings),
		Now:           now,
		PausedUntil:   t.Prefs.PausedUntil.Time(),
		SnoozedUntil:  t.Prefs.SnoozedUntil.Time(),
		Pending:       t.State.PendingBreak,
		ReminderCount: t.State.ReminderCount,
	}
}

// In is the time left until the next reminder is due (zero once due).
func (st Status) In() time.Duration { return max(st.Due.Sub(st.Now), 0) }

// MenuLine is the one-line summary for the menu: "Next: eye break in
// 12m", "Breaks paused until tomorrow", "Water break due — held while
// Claude waits on you".
func (st Status) MenuLine() string {
	switch st.Hold {
	case Disabled:
		return "Break reminders are off"
	case Paused:
		return "Breaks paused " + untilText(st.Now, st.PausedUntil)
	case Snoozed:
		return "Breaks snoozed " + untilText(st.Now, st.SnoozedUntil)
	case Quiet:
		return "Quiet hours " + untilText(st.Now, st.Next)
	}
	label := capitalize(st.Kind.Label())
	if st.Fire || !st.Due.After(st.Now) {
		if st.Hold != NotHeld {
			return fmt.Sprintf("%s due — %s", label, st.Hold)
		}
		return label + " due now"
	}
	return fmt.Sprintf("Next: %s in %s", st.Kind.Label(), text.Duration(shownLeft(st.In())))
}

// shownLeft is the time left as the menu says it: to the nearest minute,
// and never less than one before the reminder is due, so the label changes
// once a minute at most ("in 1m" for the last ninety seconds).
func shownLeft(left time.Duration) time.Duration {
	return max(left.Round(time.Minute), time.Minute)
}

// untilLeftChanges is how long after a time left of left shownLeft gives
// another value: half a minute before each whole minute, and not again
// once it says "1m".
func untilLeftChanges(left time.Duration) time.Duration {
	if left < 90*time.Second {
		return left
	}
	return (left-30*time.Second)%time.Minute + time.Millisecond
}

// untilText is "until 15:30", "until tomorrow" (midnight) or "until Mon
// 09:00".
func untilText(now, t time.Time) string {
	switch {
	case t.Equal(Tomorrow(now)):
		return "until tomorrow"
	case sameDay(now, t):
		return "until " + t.Format("15:04")
	}
	return "until " + t.Format("Mon 15:04")
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
