package ledger

import (
	"cmp"
	"slices"
	"time"
)

// How a wait ended.
const (
	EndTerminal = "terminal"   // the session went on: answered in the terminal
	EndTray     = ViaTray      // answered from the tray's menu
	EndCommand  = ViaCommand   // answered with `hud answer`
	EndWeb      = ViaWeb       // answered from the page (hud serve)
	EndRefused  = "refused"    // refused from the tray or `hud answer`
	EndEsc      = "Esc"        // interrupted in the terminal (Esc, or No)
	EndSession  = "ended"      // the session ended while it waited
	EndOpen     = "still open" // it still waits
)

// A Span is a stretch of time a session showed one state.
type Span struct {
	From, To time.Time
	State    string
}

// A Wait is one time a session waited on the person.
type Wait struct {
	From, To time.Time
	For      string
	How      string // EndTerminal, EndTray, …
	Choice   string // the choice made from the tray or `hud answer`
}

// Response is how long the person took to answer.
func (w Wait) Response() time.Duration { return w.To.Sub(w.From) }

// Open says the session still waits.
func (w Wait) Open() bool { return w.How == EndOpen }

// A Timeline is one session's part of a History.
type Timeline struct {
	Key, Host, Agent, Project, Name string
	Spans                           []Span
	Waits                           []Wait
	Stats                           Stats
	// Last is the session's last state entry up to the History's end.
	Last Entry
}

// Stats are the figures of a session, or of all.
type Stats struct {
	Working, Waiting time.Duration
	// Waits counts the waits that began in the period.
	Waits int
	// Median, P90 and Longest are of the response times of the waits
	// that ended; LongestFor is what the longest asked.
	Median, P90, Longest time.Duration
	LongestFor           string
}

// A History is the ledger folded over a period.
type History struct {
	From, To  time.Time
	Timelines []Timeline
	Total     Stats
	Absences  []Span
}

// Fold folds entries (in time order, from before from when a session's
// state then matters) into the History of [from, to). A wait is counted
// in the period it began.
func Fold(entries []Entry, from, to time.Time) History {
	h := History{From: from, To: to}
	byKey := map[string]*Timeline{}
	var order []string
	answers := map[string][]Entry{}
	for _, e := range entries {
		switch {
		case e.IsAbsence():
			if e.T.After(from) && e.Away.Before(to) {
				h.Absences = append(h.Absences, Span{From: maxTime(e.Away, from), To: minTime(e.T, to), State: "away"})
			}
		case e.IsAnswer():
			answers[e.Key] = append(answers[e.Key], e)
		case e.IsState() && e.T.Before(to):
			t := byKey[e.Key]
			if t == nil {
				t = &Timeline{Key: e.Key}
				byKey[e.Key] = t
				order = append(order, e.Key)
			}
			t.add(e)
		}
	}
	var all []Wait
	for _, k := range order {
		t := byKey[k]
		t.finish(from, to, answers[k])
		if len(t.Spans) == 0 && len(t.Waits) == 0 {
			continue
		}
		h.Timelines = append(h.Timelines, *t)
		h.Total.Working += t.Stats.Working
		h.Total.Waiting += t.Stats.Waiting
		h.Total.Waits += t.Stats.Waits
		for _, w := range t.Waits {
			if !w.From.Before(from) {
				all = append(all, w)
			}
		}
	}
	h.Total.responses(all)
	return h
}

// add notes a state entry of the session.
func (t *Timeline) add(e Entry) {
	t.Host, t.Agent = cmp.Or(e.Host, t.Host), cmp.Or(e.Agent, t.Agent)
	t.Project, t.Name = cmp.Or(e.Project, t.Project), cmp.Or(e.Name, t.Name)
	if n := len(t.Spans); n > 0 && t.Spans[n-1].To.IsZero() {
		t.Spans[n-1].To = e.T
	}
	prev := t.Last
	t.Last = e
	if e.State != Ended {
		t.Spans = append(t.Spans, Span{From: e.T, State: e.State})
	}
	if n := len(t.Waits); n > 0 && t.Waits[n-1].To.IsZero() && sameWait(prev, e) {
		t.Waits[n-1].For = e.For
		return
	}
	t.endWait(e)
	if e.State == "waiting" {
		t.Waits = append(t.Waits, Wait{From: e.T, For: e.For})
	}
}

// sameWait says whether e, a session's state entry after prev, goes on
// prev's wait rather than beginning one: the same dialog, or the hook
// naming the dialog Claude's own file said the session waits on
// ("permission prompt" a moment before "Bash: npm test"). Every reader of
// waits (Fold, Summarize) counts them by it.
func sameWait(prev, e Entry) bool {
	return prev.State == "waiting" && e.State == "waiting" && (prev.For == e.For || prev.ByClaude && !e.ByClaude)
}

// endWait closes an open wait at e: how it ended follows from what came
// next.
func (t *Timeline) endWait(e Entry) {
	n := len(t.Waits)
	if n == 0 || !t.Waits[n-1].To.IsZero() {
		return
	}
	w := &t.Waits[n-1]
	w.To = e.T
	switch {
	case e.State == Ended:
		w.How = EndSession
	case e.State == "ready":
		// The turn ended on the dialog: refused in the terminal (Esc,
		// or No), which Claude's own file reports and another agent's
		// hooks (its turn's end).
		w.How = EndEsc
	default:
		w.How = EndTerminal
	}
}

// answerSlack is how long after an answer its wait may still show: the
// session goes on once Claude has read the hook's decision.
const answerSlack = 5 * time.Second

// finish clips the timeline to [from, to), closes what is open at to,
// credits answers to their waits, and counts.
func (t *Timeline) finish(from, to time.Time, answers []Entry) {
	used := make([]bool, len(answers)) // an answer ends one wait
	for i := range t.Waits {
		w := &t.Waits[i]
		if w.To.IsZero() {
			w.To, w.How = to, EndOpen
		}
		// The slack ends where the next wait begins: an answer then is
		// that one's.
		end := w.To.Add(answerSlack)
		if i+1 < len(t.Waits) {
			end = minTime(end, t.Waits[i+1].From)
		}
		for j, a := range answers {
			if used[j] || a.T.Before(w.From) || a.T.After(end) || w.How == EndSession {
				continue
			}
			used[j] = true
			w.To, w.How, w.Choice = minTime(a.T, w.To), a.Answer, a.Choice
			if a.Refused {
				w.How = EndRefused
			}
			break
		}
	}
	var spans []Span
	for _, s := range t.Spans {
		if s.To.IsZero() {
			s.To = to
		}
		s.From, s.To = maxTime(s.From, from), minTime(s.To, to)
		if !s.To.After(s.From) {
			continue
		}
		spans = append(spans, s)
		switch {
		case busy(s.State):
			t.Stats.Working += s.To.Sub(s.From)
		case s.State == "waiting":
			t.Stats.Waiting += s.To.Sub(s.From)
		}
	}
	t.Spans = spans
	t.Waits = slices.DeleteFunc(t.Waits, func(w Wait) bool { return !w.To.After(from) && !w.Open() })
	var counted []Wait
	for _, w := range t.Waits {
		if !w.From.Before(from) {
			counted = append(counted, w)
		}
	}
	t.Stats.Waits = len(counted)
	t.Stats.responses(counted)
}

// responses sets the response figures from the waits that ended.
func (s *Stats) responses(waits []Wait) {
	s.Waits = len(waits)
	var d []time.Duration
	for _, w := range waits {
		if w.Open() {
			continue
		}
		d = append(d, w.Response())
		if w.Response() > s.Longest {
			s.Longest, s.LongestFor = w.Response(), w.For
		}
	}
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	s.Median = percentile(d, 50)
	s.P90 = percentile(d, 90)
}

// percentile is the nearest-rank percentile p of sorted d.
func percentile(d []time.Duration, p int) time.Duration {
	rank := (p*len(d) + 99) / 100
	return d[max(rank, 1)-1]
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// DisplayName is the session's name as every surface writes it.
func (t Timeline) DisplayName() string {
	return Away{Key: t.Key, Host: t.Host, Agent: t.Agent, Project: t.Project, Name: t.Name}.DisplayName()
}
