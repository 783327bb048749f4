package history

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/hud/text"
)

// Options say how Text draws.
type Options struct {
	// Now is the moment of the drawing; its location is the one hours
	// are told in.
	Now time.Time
	// Width is how many columns the lines may take.
	Width int
	// Color adds ANSI colours (a terminal without NO_COLOR); the
	// characters alone tell the states apart either way.
	Color bool
}

// The characters of a cell, by rank, and their colours.
var (
	glyphs = [...]string{shownNone: " ", shownAway: "─", shownReady: "·", shownWorking: "█", shownCompacting: "▒", shownWaiting: "!"}
	colors = [...]string{shownAway: "\x1b[2m", shownReady: "\x1b[2m", shownWorking: "\x1b[32m", shownCompacting: "\x1b[34m", shownWaiting: "\x1b[1;31m"}
)

const reset = "\x1b[0m"

// Layout of the text: the names' column, and the narrowest timeline.
const (
	nameColumn = 24
	minCells   = 12
)

// Text writes h for a terminal: a heading with the period, an hour axis,
// one row per session with its states along the hours, the figures of
// each session and of all, and a legend.
func Text(w io.Writer, h ledger.History, o Options) error {
	var b strings.Builder
	if len(h.Timelines) == 0 {
		_, phrase := period(h.From, h.To, o.Now)
		fmt.Fprintf(&b, "No sessions recorded %s. The ledger is written while agents run (docs/history.md).\n", phrase)
		_, err := io.WriteString(w, b.String())
		return err
	}
	names := nameWidth(o.Width)
	f := frameOf(h, o.Now, max(o.Width-names, minCells))
	b.WriteString(heading(h, f, o.Now) + "\n\n")
	axis(&b, f, names)
	for _, t := range h.Timelines {
		row(&b, name(t.DisplayName(), names), f.cellsOf(t.Spans), o.Color)
	}
	if len(h.Absences) > 0 {
		row(&b, name("you, away", names), f.cellsOf(h.Absences), o.Color)
	}
	b.WriteString("\n")
	figures(&b, h, names, o.Width)
	b.WriteString("\n")
	legend(&b, len(h.Absences) > 0, o.Color)
	_, err := io.WriteString(w, b.String())
	return err
}

// nameWidth is the width of the names' column, the gap after it included.
func nameWidth(width int) int {
	return min(nameColumn, max(width/4, 10))
}

// name is a session's name cut and padded to the column.
func name(s string, width int) string {
	return fmt.Sprintf("%-*s", width, text.Line(s, width-1))
}

// axis writes the hours above the cells.
func axis(b *strings.Builder, f frame, names int) {
	line := []rune(strings.Repeat(" ", names+f.cells))
	for _, l := range f.labels() {
		if l.cell+len(l.text) <= f.cells {
			copy(line[names+l.cell:], []rune(l.text))
		}
	}
	b.WriteString(strings.TrimRight(string(line), " ") + "\n")
}

// row writes one lane: its name, then a character per cell, coloured in
// runs.
func row(b *strings.Builder, label string, cells []int, color bool) {
	var line strings.Builder
	line.WriteString(label)
	for i := 0; i < len(cells); {
		j := i
		for j < len(cells) && cells[j] == cells[i] {
			j++
		}
		run := strings.Repeat(glyphs[cells[i]], j-i)
		if color && colors[cells[i]] != "" {
			run = colors[cells[i]] + run + reset
		}
		line.WriteString(run)
		i = j
	}
	b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
}

// The figures' columns after the names: each right-aligned to its width.
var columns = []struct {
	head  string
	width int
}{{"working", 8}, {"waiting on you", 16}, {"waits", 7}, {"median", 8}, {"p90", 8}}

// figures writes the table of each session's figures, then the total.
func figures(b *strings.Builder, h ledger.History, names, width int) {
	head := strings.Repeat(" ", names)
	for _, c := range columns {
		head += fmt.Sprintf("%*s", c.width, c.head)
	}
	b.WriteString(head + "  longest\n")
	for _, t := range h.Timelines {
		statsRow(b, name(t.DisplayName(), names), t.Stats, width)
	}
	statsRow(b, name("Total", names), h.Total, width)
}

// statsRow writes one line of the table; the longest response and what it
// was for take what is left of the width.
func statsRow(b *strings.Builder, label string, s ledger.Stats, width int) {
	line := label
	cells := []string{duration(s.Working), duration(s.Waiting), fmt.Sprint(s.Waits), "–", "–"}
	if s.Longest > 0 {
		cells[3], cells[4] = text.Duration(s.Median), text.Duration(s.P90)
	}
	for i, c := range columns {
		line += fmt.Sprintf("%*s", c.width, cells[i])
	}
	longest := "–"
	if s.Longest > 0 {
		longest = text.Duration(s.Longest)
		// What it was for takes the room left, if there is some.
		room := width - utf8.RuneCountInString(line) - 2 - len(longest) - len(" for ")
		if s.LongestFor != "" && room >= minFor {
			longest += " for " + text.Line(s.LongestFor, room)
		}
	}
	b.WriteString(line + "  " + longest + "\n")
}

// minFor is the least room worth giving what the longest wait was for.
const minFor = 8

// duration is d as the table writes it: "–" for none.
func duration(d time.Duration) string {
	if d <= 0 {
		return "–"
	}
	return text.Duration(d)
}

// A key is one entry of the legend.
type key struct {
	rank int
	what string
}

// keys are the entries of a legend; away adds the person's absences.
func keys(away bool) []key {
	out := []key{{shownWorking, "working"}, {shownWaiting, "waiting on you"}, {shownCompacting, "compacting"}, {shownReady, "ready"}}
	if away {
		out = append(out, key{shownAway, "you away"})
	}
	return out
}

// legend says what the characters and the figures mean.
func legend(b *strings.Builder, away, color bool) {
	var parts []string
	for _, k := range keys(away) {
		g := glyphs[k.rank]
		if color {
			g = colors[k.rank] + g + reset
		}
		parts = append(parts, g+" "+k.what)
	}
	b.WriteString(strings.Join(parts, "   ") + "\n")
	b.WriteString("median, p90, longest: how long a wait took to be answered\n")
}
