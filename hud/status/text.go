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
	rows := make([][4]string, len(v.Sessions))
	for i := range v.Sessions {
		rows[i] = textRow(&v.Sessions[i], v.Now)
		rows[i][3] = resolver.WithAgents(v.Sessions[i].Agents, rows[i][3])
	}
	writeRows(bw, rows)
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
	row := textRow(&r.Session, p.Now)
	row[3] = resolver.WithAgents(r.Agents, row[3])
	how := "fresh record, no lock yet"
	if r.IsFromLock {
		how = "lock"
	}
	row[3] = strings.TrimSpace(row[3] + "  (" + how + ", " + r.Match.String() + " match)")
	writeRows(bw, [][4]string{row})
	return bw.Flush()
}

// textRow is one session's columns: project (and Claude's name for the
// session), state, age, detail.
func textRow(s *view.Session, now time.Time) [4]string {
	return [4]string{s.Name(), string(s.State), text.Age(now.Sub(s.Since)), detail(s)}
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

// writeRows aligns the columns: two spaces between name, "state age" and
// detail, as a person scans them.
func writeRows(w io.Writer, rows [][4]string) {
	var width [3]int
	for _, r := range rows {
		for i := range width {
			width[i] = max(width[i], utf8.RuneCountInString(r[i]))
		}
	}
	for _, r := range rows {
		line := pad(r[0], width[0]) + "  " + pad(r[1], width[1]) + " " + pad(r[2], width[2]) + "  " + r[3]
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s)))
}
