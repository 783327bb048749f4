package breaks

import (
	"fmt"
	"maps"
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

// Sessions is what the tray knows of the Claude sessions right now.
type Sessions struct {
	// AnyWaiting: some session waits on the person (a permission dialog,
	// a question). Reminders are held meanwhile.
	AnyWaiting bool
	// AnyWorking: some session is busy (working or compacting). A reminder
	// due soon is delivered now, while the person would only watch.
	AnyWorking bool
}

// SessionsOf summarises the states the tray resolved for each session.
func SessionsOf(states ...store.State) Sessions {
	var s Sessions
	for _, st := range states {
		s.add(st)
	}
	return s
}

// add counts a session in state st.
func (s *Sessions) add(st store.State) {
	switch st {
	case store.StateWaiting:
		s.AnyWaiting = true
	case store.StateWorking, store.StateCompacting:
		s.AnyWorking = true
	}
}

// Prefs are the person's own choices about reminders, kept in
// ~/.claude/hud-breaks.json beside Vibe Check's file.
type Prefs struct {
	// SnoozedUntil postpones every reminder until then.
	SnoozedUntil Seconds `json:"snoozed_until,omitempty"`
	// PausedUntil stops reminders until then ("for 1 h", "until tomorrow").
	PausedUntil Seconds `json:"paused_until,omitempty"`
	// Skipped maps a kind to the due time of the one reminder the person
	// skipped: the next of that kind comes one interval later.
	Skipped map[string]Seconds `json:"skipped,omitempty"`
}

// clone returns a copy of p that shares nothing with it.
func (p Prefs) clone() Prefs {
	p.Skipped = maps.Clone(p.Skipped)
	return p
}

// equal reports whether p and q hold the same choices: whether their
// files would read the same (an empty Skipped is written as none).
func (p Prefs) equal(q Prefs) bool {
	return p.SnoozedUntil == q.SnoozedUntil && p.PausedUntil == q.PausedUntil && maps.Equal(p.Skipped, q.Skipped)
}

// dueAt is when kind k is next due, after any skipped reminder.
func (p Prefs) dueAt(s *State, k Kind, set Settings) time.Time {
	due := s.DueAt(k, set)
	skipped, ok := p.Skipped[k.String()]
	if !ok || set.Interval[k] <= 0 {
		return due
	}
	for !skipped.Time().Before(due) {
		due = due.Add(set.Interval[k])
	}
	return due
}

// Hold is why a reminder is not shown now.
type Hold int

// The reasons, in the order Decide checks them.
const (
	NotHeld  Hold = iota
	Disabled      // reminders are off in the settings
	Paused        // the person paused reminders
	Snoozed       // the person snoozed
	Quiet         // quiet hours
	Away          // nobody seems to be at the computer
	Waiting       // a session waits on the person: never interrupt then
	Dedup         // another reminder fired less than the dedup window ago
)

func (h Hold) String() string {
	switch h {
	case NotHeld:
		return "not held"
	case Disabled:
		return "reminders are off"
	case Paused:
		return "paused"
	case Snoozed:
		return "snoozed"
	case Quiet:
		return "quiet hours"
	case Away:
		return "you seem to be away"
	case Waiting:
		return "held while Claude waits on you"
	case Dedup:
		return "a reminder just fired"
	}
	return fmt.Sprintf("Hold(%d)", int(h))
}

// Plan is what the scheduler would do now, for the tray's timer and menu.
type Plan struct {
	// Kind and Due are the next reminder and when it comes due (after
	// skips; before snooze, pause and quiet hours).
	Kind Kind
	Due  time.Time
	// Fire: deliver Kind now. Early: it is not due yet but Claude works.
	Fire, Early bool
	// Horizon is how far ahead a due reminder is delivered now: now, or
	// the end of the early window while Claude works.
	Horizon time.Time
	// Hold says why nothing fires now although Kind is due (or, for
	// Paused/Snoozed/Quiet/Disabled, why nothing would fire).
	Hold Hold
	// Next is when to decide again if nothing else changes; zero means
	// only when the state, the prefs or the sessions change.
	Next time.Time
}

// Decide is the tray's rule: given the state, the person's prefs, the
// sessions and the time, it says which reminder to fire now (nil for none)
// and when to call again. It never reads a clock or a file.
func Decide(s State, p Prefs, now time.Time, sess Sessions, set Settings) (fire *Reminder, next time.Time) {
	plan := PlanAt(s, p, now, sess, set)
	if plan.Fire {
		fire = &Reminder{Kind: plan.Kind, Due: plan.Due, Early: plan.Early}
	}
	return fire, plan.Next
}

// PlanAt works out the Plan; Decide is its short form.
func PlanAt(s State, p Prefs, now time.Time, sess Sessions, set Settings) Plan {
	var plan Plan
	// The next reminder: the earliest due, the higher kind on a tie.
	for _, k := range kinds {
		due := p.dueAt(&s, k, set)
		if plan.Due.IsZero() || !due.After(plan.Due) {
			plan.Kind, plan.Due = k, due
		}
	}
	if !set.Enabled {
		plan.Hold = Disabled
		return plan
	}
	if until := p.PausedUntil.Time(); now.Before(until) {
		plan.Hold, plan.Next = Paused, until
		return plan
	}
	if until := p.SnoozedUntil.Time(); now.Before(until) {
		plan.Hold, plan.Next = Snoozed, until
		return plan
	}
	if set.Quiet.Contains(now) {
		plan.Hold, plan.Next = Quiet, set.Quiet.EndAfter(now)
		return plan
	}

	// The reminder to deliver: among those due by the horizon (now, or a
	// little later while Claude works), the highest kind.
	horizon := now
	if sess.AnyWorking && !sess.AnyWaiting {
		horizon = now.Add(set.EarlyWindow)
	}
	plan.Horizon = horizon
	candidate := -1
	for _, k := range kinds {
		if !p.dueAt(&s, k, set).After(horizon) {
			candidate = int(k)
		}
	}
	if candidate < 0 {
		// Nothing due yet: wake up when the next one is, or when it
		// enters the early window if Claude works.
		plan.Next = plan.Due
		if horizon.After(now) {
			plan.Next = plan.Due.Add(-set.EarlyWindow)
		}
		return plan
	}
	plan.Kind = Kind(candidate)
	plan.Due = p.dueAt(&s, plan.Kind, set)
	plan.Early = plan.Due.After(now)

	// A person away from the computer is not told; when they come back,
	// their prompt counts as a spontaneous break anyway. Someone watching
	// Claude work is not away, even without typing.
	if !sess.AnyWorking && !sess.AnyWaiting && now.Sub(s.LastActive.Time()) >= set.GapThreshold {
		plan.Hold = Away
		return plan
	}
	if sess.AnyWaiting {
		plan.Hold = Waiting // held, not dropped: it fires once they answer
		return plan
	}
	if last := s.LastReminderFiredAt.Time(); !last.IsZero() && now.Sub(last) < set.DedupWindow {
		plan.Hold, plan.Next = Dedup, last.Add(set.DedupWindow)
		return plan
	}
	plan.Fire = true
	return plan
}
