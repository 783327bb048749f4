package settings

import (
	"fmt"
	"strings"
	"time"
)

// QuietHours is a daily window without break reminders, in local wall-clock
// time. It may cross midnight ("22:00-08:00"). The zero value means no
// quiet hours.
type QuietHours struct {
	// Start and End are minutes after midnight; Start != End when Set.
	Start, End int
	Set        bool
}

// ParseQuietHours reads "HH:MM-HH:MM"; the empty string means none.
func ParseQuietHours(text string) (QuietHours, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return QuietHours{}, nil
	}
	from, to, ok := strings.Cut(text, "-")
	if !ok {
		return QuietHours{}, fmt.Errorf("quiet hours %q: want \"HH:MM-HH:MM\", e.g. \"22:00-08:00\"", text)
	}
	start, err := parseClock(strings.TrimSpace(from))
	if err != nil {
		return QuietHours{}, fmt.Errorf("quiet hours %q: %w", text, err)
	}
	end, err := parseClock(strings.TrimSpace(to))
	if err != nil {
		return QuietHours{}, fmt.Errorf("quiet hours %q: %w", text, err)
	}
	if start == end {
		return QuietHours{}, fmt.Errorf("quiet hours %q: start and end are the same time", text)
	}
	return QuietHours{Start: start, End: end, Set: true}, nil
}

// parseClock reads "HH:MM" (24-hour clock) into minutes after midnight.
func parseClock(text string) (int, error) {
	var h, m int
	var rest string
	n, _ := fmt.Sscanf(text, "%d:%d%s", &h, &m, &rest)
	if n != 2 || len(text) < 4 || len(text) > 5 || text[len(text)-3] != ':' {
		return 0, fmt.Errorf("%q is not a time like 08:30", text)
	}
	if h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, fmt.Errorf("%q is not a time of day (00:00 to 23:59)", text)
	}
	return h*60 + m, nil
}

// String writes q the way ParseQuietHours reads it ("" when not set).
func (q QuietHours) String() string {
	if !q.Set {
		return ""
	}
	return fmt.Sprintf("%02d:%02d-%02d:%02d", q.Start/60, q.Start%60, q.End/60, q.End%60)
}

// Contains reports whether t, in its own location, falls in the window
// (start included, end excluded).
func (q QuietHours) Contains(t time.Time) bool {
	if !q.Set {
		return false
	}
	m := t.Hour()*60 + t.Minute()
	if q.Start < q.End {
		return q.Start <= m && m < q.End
	}
	return m >= q.Start || m < q.End // crosses midnight
}

// EndAfter returns the first moment at or after t, in t's location, when
// the window is over: t itself when t is outside it. Computed on the wall
// clock, so a daylight-saving change inside the window moves the instant,
// not the hour people wrote.
func (q QuietHours) EndAfter(t time.Time) time.Time {
	if !q.Contains(t) {
		return t
	}
	y, mo, d := t.Date()
	end := time.Date(y, mo, d, q.End/60, q.End%60, 0, 0, t.Location())
	if !end.After(t) {
		end = time.Date(y, mo, d+1, q.End/60, q.End%60, 0, 0, t.Location())
	}
	return end
}
