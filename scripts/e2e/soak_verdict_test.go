package e2e

import (
	"slices"
	"sort"
	"time"
)

// The soak's verdict is computed from its samples alone, so the rules
// below are tested without the CLI (TestSoakVerdict).
const (
	// soakLateAfter: a sample is late when hud has disagreed with Claude's
	// own status for longer than this.
	soakLateAfter = time.Second
	// soakFlickerUnder: a hud state shown for less than this while
	// Claude's own status did not change is a flicker.
	soakFlickerUnder = 500 * time.Millisecond
)

// soakSample is one look at one Claude process: hud's state for Claude's
// session beside Claude's own status and what its screen shows.
type soakSample struct {
	at          time.Time     // when `hud status --json` returned
	proc        string        // the process, unique in the run ("main", "second-1")
	session     string        // the session id Claude's own file names; "" unknown
	claude      string        // Claude's own status (idle, busy, waiting); "" unknown
	claudeSince time.Time     // when Claude says its status last changed
	hud         string        // hud's state for Claude's session id; "absent" when not listed; "" unknown
	screen      string        // what the pane shows (soakScreen)
	took        time.Duration // how long that `hud status --json` took
}

// soakStep is a moment the soak acted: a prompt sent, a key pressed.
type soakStep struct {
	at   time.Time
	proc string // the process it acted on; "" for one that touched none (an idle gap)
	name string
}

// soakChange is one change of Claude's own status and how long hud took to
// show it: the first sample that agrees, so an upper bound by up to one
// sampling interval. missed: Claude changed again before hud showed it.
type soakChange struct {
	from, to string // Claude's words
	at       time.Time
	lag      time.Duration
	missed   bool
}

func (c soakChange) kind() string { return c.from + "→" + c.to }

// soakDisagreement is a stretch of samples in which hud's state is not
// Claude's, with what was seen during it and the step before it.
type soakDisagreement struct {
	proc   string
	start  time.Time // Claude's change, or the first sample that disagreed
	length time.Duration
	// behind: it began with a change of Claude's that hud had not shown;
	// otherwise hud changed while Claude held.
	behind bool
	ended  bool // hud agreed again before the process's samples ended
	// claudeEnded: it ended with Claude coming to hud's state, not hud to
	// Claude's.
	claudeEnded bool
	claude      []string
	hud         []string
	screen      []string
	step        soakStep
}

// kind says whose change the disagreement was about: hud behind a change of
// Claude's; hud ahead of one (a hook earlier than Claude's own status,
// which came to agree); or hud wrong (it changed, and changed back, while
// Claude held).
func (d soakDisagreement) kind() string {
	switch {
	case d.behind:
		return "hud behind"
	case d.ended && d.claudeEnded:
		return "hud ahead"
	}
	return "hud wrong"
}

// soakFlicker is a hud state shown briefly while Claude's own status held.
type soakFlicker struct {
	proc   string
	at     time.Time
	state  string
	length time.Duration
	claude string
	step   soakStep
}

type soakVerdict struct {
	samples int // samples where both Claude's status and hud's state are known
	// late counts the samples in which hud had not shown a change of
	// Claude's for over soakLateAfter.
	late          int
	changes       []soakChange
	disagreements []soakDisagreement
	flickers      []soakFlicker
}

func (v soakVerdict) lateShare() float64 {
	if v.samples == 0 {
		return 0
	}
	return float64(v.late) / float64(v.samples)
}

// longerThan lists the disagreements that lasted longer than d.
func (v soakVerdict) longerThan(d time.Duration) []soakDisagreement {
	var out []soakDisagreement
	for _, x := range v.disagreements {
		if x.length > d {
			out = append(out, x)
		}
	}
	return out
}

// soakAgrees: hud shows what Claude's own status means. Claude is busy
// while it compacts, which hud tells apart.
func soakAgrees(claude, hud string) bool {
	switch claude {
	case "idle":
		return hud == "ready"
	case "busy":
		return hud == "working" || hud == "compacting"
	case "waiting":
		return hud == "waiting"
	}
	return false
}

// judgeSoak computes the verdict of a run from its samples (in the order
// taken) and its steps.
func judgeSoak(samples []soakSample, steps []soakStep) soakVerdict {
	steps = slices.Clone(steps)
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].at.Before(steps[j].at) })
	var v soakVerdict
	var order []string
	tracks := map[string][]soakSample{}
	for _, s := range samples {
		if _, ok := tracks[s.proc]; !ok {
			order = append(order, s.proc)
		}
		tracks[s.proc] = append(tracks[s.proc], s)
	}
	for _, proc := range order {
		judgeTrack(tracks[proc], steps, &v)
		v.flickers = append(v.flickers, trackFlickers(tracks[proc], steps)...)
	}
	sort.SliceStable(v.disagreements, func(i, j int) bool { return v.disagreements[i].start.Before(v.disagreements[j].start) })
	sort.SliceStable(v.flickers, func(i, j int) bool { return v.flickers[i].at.Before(v.flickers[j].at) })
	return v
}

// judgeTrack follows one process's samples: Claude's changes and hud's lag
// behind each, the stretches of disagreement, the late samples. A sample
// where either side is unknown is a gap that ends whatever was in progress.
func judgeTrack(track []soakSample, steps []soakStep, v *soakVerdict) {
	var prev soakSample
	havePrev := false
	var dis *soakDisagreement
	pending := -1 // index in v.changes of the newest change hud has not shown yet
	closeDis := func(end time.Time, ended, byClaude bool) {
		if dis != nil {
			dis.length, dis.ended, dis.claudeEnded = end.Sub(dis.start), ended, byClaude
			v.disagreements = append(v.disagreements, *dis)
			dis = nil
		}
	}
	for _, s := range track {
		if s.claude == "" || s.hud == "" {
			if havePrev {
				closeDis(prev.at, false, false)
			}
			havePrev, pending = false, -1
			continue
		}
		v.samples++
		var changedAt time.Time
		if havePrev && s.claude != prev.claude {
			changedAt = clampTime(s.claudeSince, prev.at, s.at)
			if pending >= 0 {
				c := &v.changes[pending]
				c.lag, c.missed = changedAt.Sub(c.at), true
			}
			v.changes = append(v.changes, soakChange{from: prev.claude, to: s.claude, at: changedAt})
			pending = len(v.changes) - 1
		}
		agree := soakAgrees(s.claude, s.hud)
		if agree && pending >= 0 {
			v.changes[pending].lag = max(0, s.at.Sub(v.changes[pending].at))
			pending = -1
		}
		switch {
		case !agree && dis == nil:
			// A process's first sample is Claude's change too: the
			// session appeared.
			start, behind := s.at, !havePrev || !changedAt.IsZero()
			if !changedAt.IsZero() {
				start = changedAt
			}
			dis = &soakDisagreement{proc: s.proc, start: start, behind: behind, step: stepBefore(steps, s.proc, start)}
			fallthrough
		case !agree:
			dis.claude = appendNew(dis.claude, s.claude)
			dis.hud = appendNew(dis.hud, s.hud)
			dis.screen = appendNew(dis.screen, s.screen)
			if dis.behind && s.at.Sub(dis.start) > soakLateAfter {
				v.late++
			}
		default:
			closeDis(s.at, true, !changedAt.IsZero())
		}
		prev, havePrev = s, true
	}
	if havePrev {
		closeDis(prev.at, false, false)
	}
	if pending >= 0 && havePrev {
		c := &v.changes[pending]
		c.lag, c.missed = prev.at.Sub(c.at), true
	}
}

// trackFlickers finds the hud states of one process, other than Claude's,
// shown for less than soakFlickerUnder (from the first sample that showed
// one to the first that showed another) while Claude's own status, and
// when it last changed, stayed the same from the sample before to the
// sample after. Claude's own state shown briefly between two others is no
// flicker: those two are disagreements.
func trackFlickers(track []soakSample, steps []soakStep) []soakFlicker {
	var out []soakFlicker
	for i := 1; i < len(track); {
		j := i
		for j < len(track) && track[j].hud == track[i].hud {
			j++
		}
		// The run is track[i:j]; track[i-1] and track[j] show other states.
		if j < len(track) && track[i].hud != track[i-1].hud && known(track[i-1:j+1]) {
			length := track[j].at.Sub(track[i].at)
			if length < soakFlickerUnder && !soakAgrees(track[i].claude, track[i].hud) && claudeHeld(track[i-1:j+1]) {
				out = append(out, soakFlicker{proc: track[i].proc, at: track[i].at, state: track[i].hud,
					length: length, claude: track[i].claude, step: stepBefore(steps, track[i].proc, track[i].at)})
			}
		}
		i = j
	}
	return out
}

func known(samples []soakSample) bool {
	for _, s := range samples {
		if s.claude == "" || s.hud == "" {
			return false
		}
	}
	return true
}

func claudeHeld(samples []soakSample) bool {
	for _, s := range samples[1:] {
		if s.claude != samples[0].claude || !s.claudeSince.Equal(samples[0].claudeSince) {
			return false
		}
	}
	return true
}

// stepBefore is the newest step at or before t (steps sorted by time) on
// process proc, or on none.
func stepBefore(steps []soakStep, proc string, t time.Time) soakStep {
	i := sort.Search(len(steps), func(i int) bool { return steps[i].at.After(t) })
	for i--; i >= 0; i-- {
		if steps[i].proc == proc || steps[i].proc == "" {
			return steps[i]
		}
	}
	return soakStep{at: t, name: "(start)"}
}

// clampTime is t held within [lo, hi]: Claude's own change time, trusted
// only between the sample before and the sample that saw it.
func clampTime(t, lo, hi time.Time) time.Time {
	switch {
	case t.Before(lo):
		return lo
	case t.After(hi):
		return hi
	}
	return t
}

// appendNew appends s unless it is already the last element.
func appendNew(list []string, s string) []string {
	if len(list) > 0 && list[len(list)-1] == s {
		return list
	}
	return append(list, s)
}

// soakLagRow is the lag of one kind of change.
type soakLagRow struct {
	kind          string
	count, missed int
	p50, p95, max time.Duration
}

// lagByKind summarises the lags per kind of change, the kinds in a fixed
// order (Claude's three states, then any other word it used).
func (v soakVerdict) lagByKind() []soakLagRow {
	byKind := map[string][]time.Duration{}
	missed := map[string]int{}
	for _, c := range v.changes {
		if c.missed {
			missed[c.kind()]++
			continue
		}
		byKind[c.kind()] = append(byKind[c.kind()], c.lag)
	}
	kinds := []string{"idle→busy", "busy→idle", "busy→waiting", "waiting→busy", "waiting→idle", "idle→waiting"}
	var rest []string
	for k := range byKind {
		if !slices.Contains(kinds, k) {
			rest = append(rest, k)
		}
	}
	for k := range missed {
		if !slices.Contains(kinds, k) && !slices.Contains(rest, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	var rows []soakLagRow
	for _, k := range append(kinds, rest...) {
		lags := byKind[k]
		if len(lags) == 0 && missed[k] == 0 {
			continue
		}
		rows = append(rows, soakLagRow{kind: k, count: len(lags), missed: missed[k],
			p50: percentile(lags, 50), p95: percentile(lags, 95), max: percentile(lags, 100)})
	}
	return rows
}
