package history

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/hud/text"
)

// The SVG's geometry, in pixels.
const (
	svgWidth = 1000
	svgNames = 190 // the names' column
	svgRight = 16
	svgTop   = 60 // where the first lane starts
	svgLane  = 28
	svgBar   = 16
	svgLine  = 18 // a line of the caption
)

// fills are the colours of the states, by rank.
var fills = [...]string{shownAway: "#868e96", shownReady: "#dee2e6", shownWorking: "#2f9e44", shownCompacting: "#1c7ed6", shownWaiting: "#e03131"}

// hows say how a wait ended, for its tooltip.
var hows = map[string]string{
	ledger.EndTerminal: "answered in the terminal", ledger.EndTray: "answered from the tray",
	ledger.EndCommand: "answered with hud answer", ledger.EndRefused: "refused",
	ledger.EndEsc: "interrupted in the terminal", ledger.EndSession: "the session ended", ledger.EndOpen: "still waiting",
}

// svg is a drawing under way.
type svg struct {
	b     strings.Builder
	f     frame
	scale float64 // pixels per second
}

// x is where t falls on the drawing.
func (s *svg) x(t time.Time) float64 {
	return svgNames + max(0, min(t.Sub(s.f.start).Seconds()*s.scale, svgWidth-svgNames-svgRight))
}

// SVG writes h as a self-contained SVG image (no fonts, scripts or links
// from elsewhere): the heading, an hour grid, one lane per session with
// its states as coloured bars and its waits marked, and the totals as a
// caption.
func SVG(w io.Writer, h ledger.History, now time.Time) error {
	s := &svg{f: frameOf(h, now, 120)}
	s.scale = float64(svgWidth-svgNames-svgRight) / max(s.f.end.Sub(s.f.start).Seconds(), 1)
	n := len(lanes(h))
	bottom := svgTop + n*svgLane
	height := bottom + 3*svgLine + 12
	fmt.Fprintf(&s.b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		svgWidth, height, svgWidth, height)
	title := heading(h, s.f, now)
	fmt.Fprintf(&s.b, "<title>hud history: %s</title>\n", esc(title))
	fmt.Fprintf(&s.b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", svgWidth, height)
	fmt.Fprintf(&s.b, `<text x="8" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", esc(title))
	s.grid(bottom)
	for i, t := range h.Timelines {
		s.lane(i, t.DisplayName(), t.Spans)
		s.waits(i, t.Waits)
	}
	if len(h.Absences) > 0 {
		s.lane(n-1, "you, away", h.Absences)
	}
	s.caption(h, now, bottom)
	s.b.WriteString("</svg>\n")
	_, err := io.WriteString(w, s.b.String())
	return err
}

// grid writes the lanes' stripes, then the hours: a label and a line
// down through the lanes.
func (s *svg) grid(bottom int) {
	for i := range (bottom - svgTop) / svgLane {
		if i%2 == 0 {
			fmt.Fprintf(&s.b, `<rect x="0" y="%d" width="%d" height="%d" fill="#f1f3f5"/>`+"\n", svgTop+i*svgLane, svgWidth, svgLane)
		}
	}
	for _, l := range s.f.labels() {
		x := s.x(s.f.start.Add(time.Duration(l.cell) * s.f.step))
		fmt.Fprintf(&s.b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ced4da" stroke-width="1"/>`+"\n", x, svgTop-8, x, bottom)
		fmt.Fprintf(&s.b, `<text x="%.1f" y="%d" fill="#495057">%s</text>`+"\n", x+2, svgTop-12, esc(l.text))
	}
}

// lane writes lane i: its name and a bar per span.
func (s *svg) lane(i int, name string, spans []ledger.Span) {
	top := svgTop + i*svgLane
	fmt.Fprintf(&s.b, `<text x="8" y="%d">%s</text>`+"\n", top+svgLane/2+4, esc(text.Line(name, 28)))
	for _, sp := range spans {
		r := rank(sp.State)
		x0, x1 := s.x(sp.From), s.x(sp.To)
		if r == shownNone || x1 <= x0 {
			continue
		}
		tip := fmt.Sprintf("%s %s–%s (%s)", text.Line(sp.State, 20), sp.From.In(s.f.start.Location()).Format("15:04"),
			sp.To.In(s.f.start.Location()).Format("15:04"), text.Duration(sp.To.Sub(sp.From)))
		fmt.Fprintf(&s.b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`+"\n",
			x0, top+(svgLane-svgBar)/2, max(x1-x0, 0.5), svgBar, fills[r], esc(tip))
	}
}

// waits marks where each wait of lane i began, with what it asked and how
// it ended as the tooltip.
func (s *svg) waits(i int, waits []ledger.Wait) {
	y := svgTop + i*svgLane + (svgLane-svgBar)/2
	for _, w := range waits {
		tip := "waited " + text.Duration(w.Response())
		if w.For != "" {
			tip += " for " + text.Line(w.For, 120)
		}
		if how := hows[w.How]; how != "" {
			tip += ", " + how
		}
		fmt.Fprintf(&s.b, `<path d="M%.1f %dl-4 -5h8z" fill="#862e2e"><title>%s</title></path>`+"\n", s.x(w.From), y, esc(tip))
	}
}

// caption writes the totals and the legend under the lanes.
func (s *svg) caption(h ledger.History, now time.Time, bottom int) {
	y := bottom + svgLine
	if len(h.Timelines) == 0 {
		_, phrase := period(h.From, h.To, now)
		fmt.Fprintf(&s.b, `<text x="8" y="%d">No sessions recorded %s.</text>`+"\n", y, esc(phrase))
		return
	}
	fmt.Fprintf(&s.b, `<text x="8" y="%d">%s</text>`+"\n", y, esc(text.Truncate(totals(h.Total), 150)))
	x := 8
	for _, k := range keys(len(h.Absences) > 0) {
		fmt.Fprintf(&s.b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n",
			x, y+svgLine-9, fills[k.rank], x+14, y+svgLine, esc(k.what))
		x += 30 + 7*len(k.what)
	}
}

// totals is the figures of all the sessions in a sentence.
func totals(t ledger.Stats) string {
	out := fmt.Sprintf("Working %s · waiting on you %s · %d waits", text.Duration(t.Working), text.Duration(t.Waiting), t.Waits)
	if t.Longest > 0 {
		out += fmt.Sprintf(" · answered in %s (median), %s (p90), longest %s", text.Duration(t.Median), text.Duration(t.P90), text.Duration(t.Longest))
		if t.LongestFor != "" {
			out += " for " + text.Line(t.LongestFor, 0)
		}
	}
	return out
}

// esc makes s safe as an element's text.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a Builder does not fail
	return b.String()
}
