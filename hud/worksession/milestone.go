package worksession

import (
	"fmt"

	"github.com/capacitor-hud/hud/hud/text"
)

// Milestone is one step of the 40/60/90 minute ladder.
type Milestone int

// The milestones, in the order they come.
const (
	Break   Milestone = iota // gentle reminder (break40min)
	Warning                  // warning (warning60min)
	Timeout                  // the session is paused (timeout90min)
)

func (m Milestone) String() string {
	switch m {
	case Break:
		return "break40min"
	case Warning:
		return "warning60min"
	case Timeout:
		return "timeout90min"
	}
	return fmt.Sprintf("Milestone(%d)", int(m))
}

// Message is the notification for m in a session: a title and a body.
func (m Milestone) Message(s *State, set Settings) (title, body string) {
	name := s.Scope
	switch m {
	case Break:
		return fmt.Sprintf("%s: %s of work", name, text.Duration(set.RemindAt)),
			"A good moment for a short break: stand up, look away, drink some water."
	case Warning:
		return fmt.Sprintf("%s: %s of work", name, text.Duration(set.WarnAt)),
			fmt.Sprintf("Time to wrap up: the session times out at %s.", text.Duration(set.TimeoutAt))
	case Timeout:
		body := "The session is paused. Take a real break, then run 'hud session resume'."
		return fmt.Sprintf("%s: timed out at %s", name, text.Duration(set.TimeoutAt)), body
	}
	return m.String(), ""
}

// NewlyFired lists the milestones set in cur but not in prev, two reads
// of the same session (same sessionId). A session seen for the first time
// (prev nil, or another sessionId) announces nothing: its flags fired
// before the tray was looking.
func NewlyFired(prev, cur *State) []Milestone {
	if prev == nil || cur == nil || prev.SessionID != cur.SessionID {
		return nil
	}
	var fired []Milestone
	if cur.Reminders.Break40min && !prev.Reminders.Break40min {
		fired = append(fired, Break)
	}
	if cur.Reminders.Warning60min && !prev.Reminders.Warning60min {
		fired = append(fired, Warning)
	}
	if cur.Reminders.Timeout90min && !prev.Reminders.Timeout90min {
		fired = append(fired, Timeout)
	}
	return fired
}
