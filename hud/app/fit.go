package app

import (
	"fmt"

	"github.com/capacitor-hud/hud/hud/present"
)

// The rows the UI's two lists hold. The tray makes its menu items once,
// at start (a tray menu cannot grow in place: items only hide and show),
// so the loop, which knows what each row is, fits the menu into them;
// the adapter would cut the tail without a word.
const (
	// SessionRows holds the sessions the menu lists, each a row and an
	// activity line, the dialogs waiting for an answer (their subjects and
	// choices) and the machines that cannot be reached.
	SessionRows = 2*present.DefaultMaxRows + 12
	// SectionRows holds a usage line per Claude account, a line per
	// running work session, the break reminders' rows and the answering
	// switch.
	SectionRows = 16
)

// fitSessions cuts rows to at most n, whole groups at a time: a session's
// row goes with the rows under it (its activity line, its dialog's
// subject and choices), so a choice is never shown without the whole
// subject it answers. It returns how many groups did not fit, which the
// menu's More line counts.
func fitSessions(rows []Row, n int) (kept []Row, dropped int) {
	if len(rows) <= n {
		return rows, 0
	}
	end, full := 0, false
	for start := 0; start < len(rows); {
		next := start + 1
		for next < len(rows) && under(rows[next]) {
			next++
		}
		if !full && next <= n {
			end = next
		} else {
			full = true
			dropped++
		}
		start = next
	}
	return rows[:end], dropped
}

// fitSection cuts rows to at most n. Rows that act (a key: the break
// reminders' actions, the answering switch) always show; of the lines
// that only inform (the accounts' usage, the work sessions, the breaks'
// status), the first ones show and the rest are summed up in one line
// where the first of them was.
func fitSection(rows []Row, n int) []Row {
	if len(rows) <= n {
		return rows
	}
	lines := 0
	for _, r := range rows {
		if r.Key == "" {
			lines++
		}
	}
	keep := lines - (len(rows) - n + 1) // one row for the summary
	if keep < 0 {
		// More actions than room: nothing a menu of this HUD holds.
		return rows[:n]
	}
	out := make([]Row, 0, n)
	seen := 0
	for _, r := range rows {
		if r.Key == "" {
			seen++
			switch {
			case seen <= keep:
				out = append(out, r)
			case seen == keep+1:
				out = append(out, Row{Label: fmt.Sprintf("%d more lines — run 'hud status' to see them", lines-keep), Disabled: true})
			}
			continue
		}
		out = append(out, r)
	}
	return out
}
