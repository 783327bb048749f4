package ledger

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
)

// An Absence is what happened while the person was away.
type Absence struct {
	From, To time.Time
	// Sessions are those that did something meanwhile or wait now,
	// waiting ones first, then by name.
	Sessions []Away
	// Limits are the usage limits that moved, as a caller who knows them
	// says ("5-hour limit 40% → 62%").
	Limits []string
}

// Away is one session's part of an Absence.
type Away struct {
	Key, Host, Agent, Project, Name string
	// Finished says a turn ended while the person was away and the session
	// is ready now; Ended that the session ended meanwhile and is ended now.
	Finished, Ended bool
	// Waiting, when set, is since when the session waits, for For.
	Waiting time.Time
	For     string
	// Commits, Files and Todos are how many the session added meanwhile.
	Commits, Files, Todos int
	// ContextFrom and ContextTo are its context's fill before and after,
	// in percent, when both are known and they differ.
	ContextFrom, ContextTo int
	// Recap is the session's own summary of the time away, where the agent
	// wrote one (Claude Code's away_summary), set by the caller.
	Recap string
}

// DisplayName is the session's name as every surface writes it.
func (a Away) DisplayName() string {
	return view.WithHost(a.Host, view.WithAgent(view.NameOf(a.Project, a.Name, a.Key), a.Agent))
}

// Summarize sums up entries (in time order, reaching back before from) for
// the absence [from, to).
func Summarize(entries []Entry, from, to time.Time) Absence {
	abs := Absence{From: from, To: to}
	type track struct {
		before, last Entry // the state at from, and at to
		worked       bool  // working at from or some time after
		ended        bool  // it ended meanwhile
		gone         bool  // it is ended at to
		waitingSince time.Time
	}
	byKey := map[string]*track{}
	var order []string
	for _, e := range entries {
		if !e.IsState() || !e.T.Before(to) {
			continue
		}
		t := byKey[e.Key]
		if t == nil {
			t = &track{}
			byKey[e.Key] = t
			order = append(order, e.Key)
		}
		if !e.T.After(from) {
			t.before = e
		} else if e.State == Ended {
			t.ended = true
		}
		t.gone = e.State == Ended
		if busy(e.State) && e.T.After(from) {
			t.worked = true
		}
		if e.State == "waiting" && !sameWait(t.last, e) {
			t.waitingSince = e.T
		}
		if e.State != Ended {
			t.last = e
		}
	}
	for _, key := range order {
		t := byKey[key]
		if t.gone && !t.ended || !t.gone && t.last.T.Before(from) && t.last.State != "waiting" {
			continue // nothing happened to it meanwhile
		}
		if t.before.State == Ended {
			t.before = Entry{}
		}
		t.worked = t.worked || busy(t.before.State)
		a := Away{Key: key, Host: t.last.Host, Agent: t.last.Agent, Project: t.last.Project, Name: t.last.Name, Ended: t.gone}
		switch {
		case t.gone: // it neither waits nor is ready now
		case t.last.State == "waiting":
			a.Waiting, a.For = t.waitingSince, t.last.For
		case t.last.State == "ready":
			a.Finished = t.worked && (t.before.State != "ready" || t.last.T.After(from))
		}
		a.Commits = max(t.last.Commits-t.before.Commits, 0)
		a.Files = max(t.last.Files-t.before.Files, 0)
		a.Todos = max(t.last.Todos-t.before.Todos, 0)
		if t.before.Context > 0 && t.last.Context > 0 && t.before.Context != t.last.Context {
			a.ContextFrom, a.ContextTo = t.before.Context, t.last.Context
		}
		if a.Finished || a.Ended || !a.Waiting.IsZero() || a.Commits+a.Files+a.Todos > 0 || a.ContextTo > 0 {
			abs.Sessions = append(abs.Sessions, a)
		}
	}
	slices.SortStableFunc(abs.Sessions, func(x, y Away) int {
		if wx, wy := !x.Waiting.IsZero(), !y.Waiting.IsZero(); wx != wy {
			if wx {
				return -1
			}
			return 1
		}
		return cmp.Compare(x.DisplayName(), y.DisplayName())
	})
	return abs
}

// busy says a state is the agent's work.
func busy(state string) bool { return state == "working" || state == "compacting" }

// Empty says nothing happened worth telling.
func (a Absence) Empty() bool { return len(a.Sessions) == 0 && len(a.Limits) == 0 }

// Title is the absence's one-line heading: "While you were away (42m)".
func (a Absence) Title() string {
	return "While you were away (" + text.Duration(a.To.Sub(a.From)) + ")"
}

// Lines are the absence told one line per session, then the limits: the
// notification joins them, `hud away` prints them.
func (a Absence) Lines(now time.Time) []string {
	var out []string
	for _, s := range a.Sessions {
		out = append(out, s.DisplayName()+": "+s.line(now))
	}
	return append(out, a.Limits...)
}

// line says what happened to one session.
func (s Away) line(now time.Time) string {
	var parts []string
	switch {
	case !s.Waiting.IsZero():
		w := "waits since " + s.Waiting.Local().Format("15:04") + " (" + text.Duration(now.Sub(s.Waiting)) + ")"
		if s.For != "" {
			w += " for " + s.For
		}
		parts = append(parts, w)
	case s.Ended:
		parts = append(parts, "ended")
	case s.Finished:
		parts = append(parts, "finished")
	default:
		parts = append(parts, "worked")
	}
	if s.Recap != "" {
		parts = append(parts, s.Recap)
	}
	for _, n := range []struct {
		n    int
		unit string
	}{{s.Commits, "commit"}, {s.Files, "file"}, {s.Todos, "todo"}} {
		// "todo" counts the todos done meanwhile.
		switch {
		case n.n == 1:
			parts = append(parts, "1 "+n.unit)
		case n.n > 1:
			parts = append(parts, fmt.Sprintf("%d %ss", n.n, n.unit))
		}
	}
	if s.ContextTo > 0 {
		parts = append(parts, fmt.Sprintf("context %d%% → %d%%", s.ContextFrom, s.ContextTo))
	}
	return strings.Join(parts, " · ")
}
