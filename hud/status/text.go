package status

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/resolver"
)

// NoSessions is what the text format prints when nothing is live.
const NoSessions = "no Claude Code sessions"

// WriteText prints one aligned line per session, attention first:
//
//	api  waiting 2m   Bash: npm test
//	web  working 40s  "fix the login form"
func WriteText(w io.Writer, v *View) error {
	bw := bufio.NewWriter(w)
	if len(v.Sessions) == 0 {
		fmt.Fprintln(bw, NoSessions)
	}
	rows := make([]row, len(v.Sessions))
	for i := range v.Sessions {
		rows[i] = textRow(&v.Sessions[i], v.Now)
		rows[i][4] = resolver.WithSubagents(v.Sessions[i].Subagents, rows[i][4])
	}
	writeRows(bw, rows)
	for _, line := range view.AccountLines(v.Accounts, v.Now) {
		fmt.Fprintln(bw, line)
	}
	// A machine whose sessions cannot be seen is said after the table, so
	// nobody takes its silence for no sessions.
	for _, r := range v.Remotes {
		if r.Down() {
			fmt.Fprintln(bw, r.Status(v.Now))
		}
	}
	return bw.Flush()
}

// WriteProjectText prints the session that decides the project's state, as
// a WriteText line followed by how it was found, or says there is none.
func WriteProjectText(w io.Writer, p *ProjectView) error {
	bw := bufio.NewWriter(w)
	if p.Resolved == nil {
		fmt.Fprintf(bw, "no Claude Code session in %s\n", p.Project)
		return bw.Flush()
	}
	r := p.Resolved
	line := textRow(&r.Session, p.Now)
	line[4] = resolver.WithSubagents(r.Subagents, line[4])
	how := "fresh record, no lock yet"
	if r.IsFromLock {
		how = "lock"
	}
	line[4] = strings.TrimSpace(line[4] + "  (" + how + ", " + r.Match.String() + " match)")
	writeRows(bw, []row{line})
	return bw.Flush()
}

// row is one session's columns: project (and Claude's name for the
// session), state, age, context in use ("ctx 87%", "" when unknown),
// detail.
type row [5]string

// textRow is the row of s.
func textRow(s *view.Session, now time.Time) row {
	return row{s.Name(), string(s.State), text.Age(now.Sub(s.Since)), s.ContextShort(), detail(s)}
}

// detail says what the session is about: what it waits for when waiting,
// else the prompt it works (or last worked) on.
func detail(s *view.Session) string {
	if s.WaitingFor != "" {
		return text.Line(s.WaitingFor, 0)
	}
	if s.WorkingOn != "" {
		return `"` + text.Line(s.WorkingOn, 0) + `"`
	}
	return ""
}

// writeRows aligns the columns: two spaces between name, "state age",
// the context column (left out when no session's is known) and detail,
// as a person scans them.
func writeRows(w io.Writer, rows []row) {
	var width [4]int
	for _, r := range rows {
		for i := range width {
			width[i] = max(width[i], utf8.RuneCountInString(r[i]))
		}
	}
	for _, r := range rows {
		line := pad(r[0], width[0]) + "  " + pad(r[1], width[1]) + " " + pad(r[2], width[2]) + "  "
		if width[3] > 0 {
			line += pad(r[3], width[3]) + "  "
		}
		fmt.Fprintln(w, strings.TrimRight(line+r[4], " "))
	}
}

func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s)))
}
