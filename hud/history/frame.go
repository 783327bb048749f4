package history

import (
	"time"

	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/hud/text"
)

// The states a cell or a rect shows, by how much they matter: where one
// cell holds several, the highest is drawn.
const (
	shownNone = iota // ended, or a state hud does not know
	shownAway
	shownReady
	shownWorking
	shownCompacting
	shownWaiting
)

// rank is how much a span's state matters.
func rank(state string) int {
	switch state {
	case "waiting":
		return shownWaiting
	case "compacting":
		return shownCompacting
	case "working":
		return shownWorking
	case "ready":
		return shownReady
	case "away":
		return shownAway
	}
	return shownNone
}

// period names the period of a History: a heading ("Today", "Sat 28 Nov",
// "Last 8h") and the words that end "No sessions recorded …".
func period(from, to, now time.Time) (title, phrase string) {
	loc := now.Location()
	from, to, now = from.In(loc), to.In(loc), now.In(loc)
	start := midnight(from)
	switch {
	case from.Equal(start) && sameDay(from, now) && !to.After(now):
		return "Today", "today"
	case from.Equal(start) && !to.After(start.AddDate(0, 0, 1)):
		day := from.Format("Mon 2 Jan")
		if from.Year() != now.Year() {
			day = from.Format("Mon 2 Jan 2006")
		}
		return day, "on " + day
	case to.Equal(now):
		d := text.Duration(to.Sub(from))
		return "Last " + d, "in the last " + d
	}
	return "", "from " + from.Format("Mon 2 Jan 15:04") + " to " + to.Format("Mon 2 Jan 15:04")
}

// heading is the first line of a drawing: the period and the hours drawn.
func heading(h ledger.History, f frame, now time.Time) string {
	title, _ := period(h.From, h.To, now)
	hours := f.start.Format("15:04") + "–" + f.end.Format("15:04")
	if !sameDay(f.start, f.end) && !f.end.Equal(midnight(f.end)) {
		hours = f.start.Format("Mon 2 Jan 15:04") + " – " + f.end.Format("Mon 2 Jan 15:04")
	}
	if title == "" {
		return hours
	}
	return title + ", " + hours
}

func midnight(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// A frame is the stretch of time a drawing covers, cut in equal cells: from
// the hour of the first thing shown to the period's end (for a period that
// ended before now, to the hour after the last thing shown).
type frame struct {
	start, end time.Time
	step       time.Duration // the length of one cell
	cells      int
	// every is how many hours apart the axis labels are.
	every int
	// days says the frame spans more than a day: midnight is labelled
	// with the day's name.
	days bool
}

// steps are the lengths a cell may have, shortest first: each divides an
// hour or a day, so the hours fall on a cell's edge.
var steps = []time.Duration{
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute,
	20 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 3 * time.Hour,
	6 * time.Hour, 12 * time.Hour, 24 * time.Hour,
}

// frameOf is the frame of h in at most cells cells, told in now's location.
func frameOf(h ledger.History, now time.Time, cells int) frame {
	loc := now.Location()
	first, last := h.To, h.From
	for _, spans := range lanes(h) {
		for _, s := range spans {
			first, last = minTime(first, s.From), maxTime(last, s.To)
		}
	}
	if !first.Before(last) {
		first, last = h.From, h.To
	}
	end := h.To.In(loc)
	if !h.To.Equal(now) {
		end = minTime(end, ceilHour(last.In(loc)))
	}
	f := frame{end: end}
	for _, f.step = range steps {
		f.start = floorStep(first.In(loc), f.step)
		f.cells = int((f.end.Sub(f.start) + f.step - 1) / f.step)
		if f.cells <= cells {
			break
		}
	}
	f.cells = max(f.cells, 1)
	f.days = f.end.Sub(f.start) > 24*time.Hour
	apart := 4 * f.step // "09  10"
	if f.days {
		apart = 6 * f.step // "Sun   03"
	}
	f.every = 24
	for _, every := range []int{1, 2, 3, 6, 12} {
		if time.Duration(every)*time.Hour >= apart {
			f.every = every
			break
		}
	}
	return f
}

// floorStep is the latest time at or before t on the hour that a cell of
// step can start at: on the hour, or on a multiple of step's hours in the
// day.
func floorStep(t time.Time, step time.Duration) time.Time {
	hour := t.Hour()
	if hours := int(step / time.Hour); hours > 1 {
		hour -= hour % hours
	}
	return time.Date(t.Year(), t.Month(), t.Day(), hour, 0, 0, 0, t.Location())
}

func ceilHour(t time.Time) time.Time {
	h := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, t.Location())
	if h.Before(t) {
		h = h.Add(time.Hour)
	}
	return h
}

// lanes are the rows drawn: one per session, then the person's absences
// when there are any.
func lanes(h ledger.History) [][]ledger.Span {
	var out [][]ledger.Span
	for _, t := range h.Timelines {
		out = append(out, t.Spans)
	}
	if len(h.Absences) > 0 {
		out = append(out, h.Absences)
	}
	return out
}

// cellsOf is what each cell of f shows of spans: the rank of the state that
// matters most in it.
func (f frame) cellsOf(spans []ledger.Span) []int {
	out := make([]int, f.cells)
	for _, s := range spans {
		from, to := s.From.Sub(f.start), s.To.Sub(f.start)
		if to <= 0 || from >= time.Duration(f.cells)*f.step {
			continue
		}
		i0, i1 := max(int(from/f.step), 0), min(int((to+f.step-1)/f.step), f.cells)
		for i := i0; i < i1; i++ {
			out[i] = max(out[i], rank(s.State))
		}
	}
	return out
}

// A label names an hour on the axis, at its cell.
type label struct {
	cell int
	text string
}

// labels are the hours the axis names, in order: "09", or the day's name
// at midnight when the frame spans days.
func (f frame) labels() []label {
	var out []label
	for i := range f.cells {
		t := f.start.Add(time.Duration(i) * f.step)
		if t.Minute() != 0 || t.Hour()%f.every != 0 {
			continue
		}
		l := label{i, t.Format("15")}
		if f.days && t.Hour() == 0 {
			l.text = t.Format("Mon")
		}
		out = append(out, l)
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
