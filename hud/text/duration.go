package text

import (
	"fmt"
	"time"
)

// Duration writes d the one way hud writes a length of time, in the menu,
// the terminal and the notifications alike: "45s", "12m", "1h", "1h 5m",
// "2d", "2d 3h". Two units at most, and cut down, never rounded up: what
// is said has always passed (or is always still left, for a countdown).
// A negative d (a clock that stepped back) is "0s".
func Duration(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < day:
		return pair(int(d/time.Hour), "h", int(d%time.Hour/time.Minute), "m")
	}
	return pair(int(d/day), "d", int(d%day/time.Hour), "h")
}

func pair(n int, unit string, m int, sub string) string {
	if m == 0 {
		return fmt.Sprintf("%d%s", n, unit)
	}
	return fmt.Sprintf("%d%s %d%s", n, unit, m, sub)
}

// Age is how long something has been so, as a label that is looked at
// again and again (a session's state in the menu, `hud status --watch`):
// "now" under ten seconds, then [Duration] cut to ten-second steps under a
// minute (the label changes six times in the first minute, not sixty),
// to minutes under a day and to hours after.
func Age(d time.Duration) string {
	if d < 10*time.Second {
		return "now"
	}
	return Duration(d - d%ageStep(d))
}

// UntilAgeChanges is how long after age [Age] gives another label: what
// is left of the label's step. A negative age (a clock stepped back) is
// looked at again when the clock catches up.
func UntilAgeChanges(age time.Duration) time.Duration {
	if age < 0 {
		return -age
	}
	step := ageStep(age)
	return step - age%step
}

// ageStep is the unit an Age label of age counts in.
func ageStep(age time.Duration) time.Duration {
	switch {
	case age < time.Minute:
		return 10 * time.Second
	case age < 24*time.Hour:
		return time.Minute
	}
	return time.Hour
}
