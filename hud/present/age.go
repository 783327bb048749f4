package present

import (
	"fmt"
	"time"
)

// FormatAge is how long a session has been in its state, as the menu says
// it: "now" under 10 s, then "10s", "20s"… (ten-second steps, so the label
// changes six times in the first minute rather than sixty), "2m" under an
// hour, then "1h05m", and "1d3h" past a day.
func FormatAge(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return "now"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/(10*time.Second))*10)
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	default:
		return fmt.Sprintf("%dd%dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
	}
}

// UntilAgeLabelChanges is how long after age FormatAge gives another label:
// the step of the label's unit, minus what has passed of it.
func UntilAgeLabelChanges(age time.Duration) time.Duration {
	if age < 0 {
		return -age // a clock step backwards: look again when it catches up
	}
	step := 10 * time.Second
	switch {
	case age < time.Minute:
	case age < 24*time.Hour:
		step = time.Minute
	default:
		step = time.Hour
	}
	return step - age%step
}
