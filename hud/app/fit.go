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

// fitSection fits the section into n rows: the accounts' usage lines,
// then the other rows (the work sessions, the break reminders' lines and
// actions, the answering switch). Those others always show, since `hud
// status` shows none of them; the accounts take the room left, in order,
// and those it cannot hold are summed up in one line: `hud status` lists
// every account.
func fitSection(accounts, others []Row, n int) []Row {
	room := n - len(others)
	switch {
	case len(accounts) <= room:
		return append(append(make([]Row, 0, len(accounts)+len(others)), accounts...), others...)
	case room < 1:
		// No room for even the summary: more rows than a menu of this
		// HUD holds.
		return others[:min(n, len(others))]
	}
	out := make([]Row, 0, n)
	out = append(out, accounts[:room-1]...)
	out = append(out, Row{Label: fmt.Sprintf("%d more accounts — run 'hud status' to see them", len(accounts)-(room-1)), Disabled: true})
	return append(out, others...)
}
