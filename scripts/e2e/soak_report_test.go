package e2e

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// soakRun is what a soak's report says: how it ran and its verdict.
type soakRun struct {
	version    string
	seed       int64
	planned    time.Duration
	start, end time.Time
	sessions   int
	steps      []soakStep
	counts     map[string]int // step kind → how many times it ran
	verdict    soakVerdict
	loadBefore string
	loadAfter  string
	problems   []string         // steps the rig could not drive as planned
	hudErrors  []string         // `hud status --json` runs that failed
	hudTook    [3]time.Duration // p50, p95, max of one `hud status --json`
	history    history          // the ledger over the run (`hud history --json`)
	ledger     soakLedger       // how it compares with the samples
}

// hudTook is the p50, p95 and max of how long one `hud status --json` took:
// on a loaded machine every lag grows with it.
func hudTook(samples []soakSample) [3]time.Duration {
	var took []time.Duration
	for _, s := range samples {
		took = append(took, s.took)
	}
	return [3]time.Duration{percentile(took, 50), percentile(took, 95), percentile(took, 100)}
}

// trace is every sample and every step of the run in time order, one a
// line, tab-separated: seconds from the start, then "step" and what it
// did, or the process, Claude's status, when it last changed (seconds from
// the start), hud's state, the screen and the states the ledger says the
// session showed while that `hud status` ran.
func (run soakRun) trace(samples []soakSample) string {
	type line struct {
		at   time.Time
		text string
	}
	var lines []line
	for _, st := range run.steps {
		lines = append(lines, line{st.at, "step\t" + st.name})
	}
	for _, s := range samples {
		sess, _ := run.history.session(s.session)
		ledger := strings.Join(sess.statesDuring(s.at.Add(-s.took), s.at), "/")
		lines = append(lines, line{s.at, fmt.Sprintf("%s\t%s\t%.3f\t%s\t%s\t%s", s.proc, s.claude, s.claudeSince.Sub(run.start).Seconds(), s.hud, s.screen, ledger)})
	}
	slices.SortStableFunc(lines, func(a, b line) int { return a.at.Compare(b.at) })
	var b strings.Builder
	b.WriteString("# seconds\tprocess\tclaude\tclaude since\thud\tscreen\tledger (or: seconds, step, what)\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "%.3f\t%s\n", l.at.Sub(run.start).Seconds(), l.text)
	}
	return b.String()
}

// markdown is the report, printed and written under bin/e2e: the figures,
// the lag per kind of change, every disagreement over a second with the
// step before it, every flicker.
func (run soakRun) markdown() string {
	v := run.verdict
	var b strings.Builder
	fmt.Fprintf(&b, "### Soak: Claude Code %s, seed %d, %v\n\n", run.version, run.seed, run.planned)
	fmt.Fprintf(&b, "%d samples of %d sessions (one look every %v at `hud status --json`, Claude's own `sessions/<pid>.json` and its screen), "+
		"%d actions in %v; load average %s before, %s after.\n\n",
		v.samples, run.sessions, soakEvery, len(run.steps), run.end.Sub(run.start).Round(time.Second), run.loadBefore, run.loadAfter)
	fmt.Fprintf(&b, "One `hud status --json` took %s (p50), %s (p95), %s (max).\n\n", ms(run.hudTook[0]), ms(run.hudTook[1]), ms(run.hudTook[2]))
	over1, over2 := v.longerThan(soakLateAfter), v.longerThan(2*time.Second)
	b.WriteString("| measure | result | target |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| late share: samples where hud has not shown a change of Claude's status for over %v | %.2f %% (%d of %d) | ≤ 0.5 %% |\n",
		soakLateAfter, 100*v.lateShare(), v.late, v.samples)
	fmt.Fprintf(&b, "| disagreements over 1 s | %d (%s) | |\n", len(over1), kindCounts(over1))
	fmt.Fprintf(&b, "| disagreements over 2 s | %d | 0 |\n", len(over2))
	fmt.Fprintf(&b, "| flickers: a hud state shown under %v while Claude's status held | %d | 0 |\n", soakFlickerUnder, len(v.flickers))
	b.WriteString(run.ledger.tableRows() + "\n")

	b.WriteString("Lag from a change of Claude's own status to `hud status` showing it (an upper bound: the first sample that shows it); " +
		"missed: Claude changed again before hud showed it.\n\n")
	b.WriteString("| change (Claude's words) | count | p50 | p95 | max | missed |\n|---|---|---|---|---|---|\n")
	for _, row := range v.lagByKind() {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %d |\n", row.kind, row.count, ms(row.p50), ms(row.p95), ms(row.max), row.missed)
	}
	if len(over1) > 0 {
		b.WriteString("\nDisagreements over 1 s (seconds from the start). Kind: hud *behind* a change of Claude's; " +
			"hud *ahead* of one (a hook earlier than Claude's own status, which then came to agree); " +
			"hud *wrong* (it changed, and changed back, while Claude's status held).\n\n")
		b.WriteString("| at | session | for | kind | Claude | hud | screen | the step before |\n|---|---|---|---|---|---|---|---|\n")
		for _, d := range over1 {
			length := ms(d.length)
			if !d.ended {
				length += " (to the end)"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s at %s |\n", run.offset(d.start), d.proc, length, d.kind(),
				strings.Join(d.claude, " → "), strings.Join(d.hud, " → "), strings.Join(d.screen, " → "), d.step.name, run.offset(d.step.at))
		}
	}
	if len(v.flickers) > 0 {
		b.WriteString("\nFlickers:\n\n| at | session | hud showed | for | Claude | the step before |\n|---|---|---|---|---|---|\n")
		for _, f := range v.flickers {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s at %s |\n", run.offset(f.at), f.proc, f.state, ms(f.length), f.claude, f.step.name, run.offset(f.step.at))
		}
	}
	b.WriteString(run.ledger.markdown(run))
	fmt.Fprintf(&b, "\nSteps: %s.\n", run.stepCounts())
	if len(run.problems) > 0 {
		fmt.Fprintf(&b, "\nSteps the rig could not drive as planned (%d):\n\n", len(run.problems))
		for _, p := range run.problems {
			fmt.Fprintf(&b, "- %s\n", p)
		}
	}
	if len(run.hudErrors) > 0 {
		fmt.Fprintf(&b, "\n`hud status --json` failed %d times; the first: %s\n", len(run.hudErrors), run.hudErrors[0])
	}
	return b.String()
}

// kindCounts says how many disagreements there are of each kind.
func kindCounts(ds []soakDisagreement) string {
	n := map[string]int{}
	for _, d := range ds {
		n[d.kind()]++
	}
	var parts []string
	for _, k := range []string{"hud behind", "hud ahead", "hud wrong"} {
		parts = append(parts, fmt.Sprintf("%s %d", strings.TrimPrefix(k, "hud "), n[k]))
	}
	return strings.Join(parts, ", ")
}

// offset is t as seconds from the start of the run.
func (run soakRun) offset(t time.Time) string {
	return fmt.Sprintf("+%.1f s", t.Sub(run.start).Seconds())
}

// stepCounts lists the kinds of step that ran, the most frequent first.
func (run soakRun) stepCounts() string {
	kinds := make([]string, 0, len(run.counts))
	for k := range run.counts {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int {
		if run.counts[a] != run.counts[b] {
			return run.counts[b] - run.counts[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s ×%d", k, run.counts[k])
	}
	return strings.Join(parts, ", ")
}
