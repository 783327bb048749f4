package e2e

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The ledger's part of the soak's verdict: the lock holders record every
// state hud shows, so the ledger's timeline of each session must be what
// the soak saw `hud status` show, nearly all the time, and it must hold
// every dialog the soak opened, ended.
const (
	// soakLedgerAgreement is the least share of the run's time, by the
	// samples, in which the ledger says what hud showed: the ledger is
	// stamped when a lock holder sees a change, a moment after `hud
	// status` can.
	soakLedgerAgreement = 0.99
	// soakLedgerSettle is how long after a session first shows that its
	// samples are left out: the ledger starts it when its lock holder
	// first sees its session id.
	soakLedgerSettle = time.Second
	// soakWaitSlack is how far from its dialog on screen a wait of the
	// ledger may begin and still be that dialog's.
	soakWaitSlack = 5 * time.Second
)

// soakWait is a dialog the soak opened and answered.
type soakWait struct {
	proc, session string
	subject       string // what the ledger's "for" holds
	how           string // how the ledger should say it ended
	shown, acted  time.Time
}

// noteWait records a dialog of c's, shown at shown and answered with key
// at acted.
func (k *soaker) noteWait(c *claudeProc, subject string, shown, acted time.Time, key string) {
	how := "terminal"
	if key == "Escape" {
		how = "Esc"
	}
	k.waits = append(k.waits, soakWait{proc: c.name, session: c.sessionID(), subject: subject, how: how, shown: shown, acted: acted})
}

// soakLedger is how the ledger compares with the soak's samples.
type soakLedger struct {
	err             string        // `hud history --json` failed
	counted, agreed time.Duration // the samples' time compared, and agreeing
	stretches       []ledgerStretch
	waits           int
	missing         []string // waits the ledger lacks or left open
	otherHow        []string // waits that ended other than their key says
	// others are the ledger's waits of the soak's sessions that no step
	// of the soak made (a startup question, or one dialog counted twice).
	others []string
}

func (l soakLedger) share() float64 {
	if l.counted == 0 {
		return 0
	}
	return float64(l.agreed) / float64(l.counted)
}

// ledgerStretch is a run of one session's samples in which the ledger
// does not say what hud showed.
type ledgerStretch struct {
	proc, session string
	start         time.Time
	length        time.Duration
	hud, ledger   []string
}

// judgeLedger compares h with the samples (in the order taken) and looks
// up the waits. Each sample stands for the time to its process's next
// (soakEvery for the last); it agrees when the ledger showed hud's state
// at some moment while `hud status` ran, "absent" when in no span.
func judgeLedger(samples []soakSample, waits []soakWait, h history) soakLedger {
	var l soakLedger
	first := map[string]time.Time{}
	next := map[int]time.Time{}
	last := map[string]int{}
	for i, s := range samples {
		if t, ok := first[s.session]; s.session != "" && (!ok || s.at.Before(t)) {
			first[s.session] = s.at
		}
		if j, ok := last[s.proc]; ok {
			next[j] = s.at
		}
		last[s.proc] = i
	}
	open := map[string]*ledgerStretch{}
	for i, s := range samples {
		if s.session == "" || s.hud == "" || s.at.Before(first[s.session].Add(soakLedgerSettle)) {
			continue
		}
		weight := soakEvery
		if t, ok := next[i]; ok {
			weight = t.Sub(s.at)
		}
		sess, _ := h.session(s.session)
		seen := sess.statesDuring(s.at.Add(-s.took), s.at)
		l.counted += weight
		key := s.proc + "\x00" + s.session
		if slices.Contains(seen, s.hud) {
			l.agreed += weight
			if st := open[key]; st != nil {
				l.stretches = append(l.stretches, *st)
				delete(open, key)
			}
			continue
		}
		st := open[key]
		if st == nil {
			st = &ledgerStretch{proc: s.proc, session: s.session, start: s.at}
			open[key] = st
		}
		st.length = s.at.Add(weight).Sub(st.start)
		st.hud = appendNew(st.hud, s.hud)
		st.ledger = appendNew(st.ledger, strings.Join(seen, "/"))
	}
	for _, st := range open {
		l.stretches = append(l.stretches, *st)
	}
	slices.SortStableFunc(l.stretches, func(a, b ledgerStretch) int { return cmp.Compare(b.length, a.length) })
	l.waits = len(waits)
	matched := map[string]map[int]bool{}
	for _, w := range waits {
		if i := l.lookUp(w, h); i >= 0 {
			if matched[w.session] == nil {
				matched[w.session] = map[int]bool{}
			}
			matched[w.session][i] = true
		}
	}
	for key := range first {
		sess, _ := h.session(key)
		for i, x := range sess.Waits {
			if !matched[key][i] {
				l.others = append(l.others, fmt.Sprintf("%s: %q from %s, %s after %.3f s", shortID(key), x.For, x.From.Format("15:04:05.000"), x.How, x.Response))
			}
		}
	}
	slices.Sort(l.others)
	return l
}

// lookUp finds the soak's wait w in the ledger: a wait of its session
// whose subject holds w's, begun within soakWaitSlack of the dialog. It
// returns the wait's index in its session, -1 when none.
func (l *soakLedger) lookUp(w soakWait, h history) int {
	sess, _ := h.session(w.session)
	for i, x := range sess.Waits {
		if !strings.Contains(x.For, w.subject) || x.From.Before(w.shown.Add(-soakWaitSlack)) || x.From.After(w.acted.Add(soakWaitSlack)) {
			continue
		}
		switch {
		case x.How == "" || x.How == "still open":
			l.missing = append(l.missing, fmt.Sprintf("%s: %q (session %s) is still open in the ledger", w.proc, w.subject, shortID(w.session)))
		case x.How != w.how:
			l.otherHow = append(l.otherHow, fmt.Sprintf("%s: %q ended %q, not %q", w.proc, w.subject, x.How, w.how))
		}
		return i
	}
	var have []string
	for _, x := range sess.Waits {
		have = append(have, fmt.Sprintf("%q at %s", x.For, x.From.Format("15:04:05.000")))
	}
	l.missing = append(l.missing, fmt.Sprintf("%s: %q (session %s, on screen at %s) is not in the ledger; its waits: %s",
		w.proc, w.subject, shortID(w.session), w.shown.Format("15:04:05.000"), strings.Join(have, ", ")))
	return -1
}

func shortID(id string) string { return id[:min(8, len(id))] }

// markdown is the ledger's part of the report: the figures and, under
// the table, what disagreed.
func (l soakLedger) markdown(run soakRun) string {
	var b strings.Builder
	if l.err != "" {
		fmt.Fprintf(&b, "\nThe ledger could not be read: %s\n", l.err)
		return b.String()
	}
	if len(l.stretches) > 0 {
		b.WriteString("\nWhere the ledger did not say what `hud status` showed, the longest first (seconds from the start):\n\n")
		b.WriteString("| at | session | for | hud | ledger |\n|---|---|---|---|---|\n")
		for _, st := range l.stretches[:min(10, len(l.stretches))] {
			fmt.Fprintf(&b, "| %s | %s (%s) | %s | %s | %s |\n", run.offset(st.start), st.proc, shortID(st.session), ms(st.length),
				strings.Join(st.hud, " → "), strings.Join(st.ledger, " → "))
		}
	}
	for _, list := range []struct {
		title string
		items []string
	}{{"Waits missing from the ledger", l.missing}, {"Waits the ledger says ended otherwise than the key pressed", l.otherHow},
		{"The ledger's other waits in the soak's sessions (no step of the soak made them)", l.others}} {
		if len(list.items) > 0 {
			fmt.Fprintf(&b, "\n%s (%d):\n\n", list.title, len(list.items))
			for _, s := range list.items {
				fmt.Fprintf(&b, "- %s\n", s)
			}
		}
	}
	return b.String()
}

// tableRows are the ledger's rows of the report's table of measures.
func (l soakLedger) tableRows() string {
	if l.err != "" {
		return fmt.Sprintf("| the ledger (`hud history --json`) agrees with hud's samples | not read | ≥ %.0f %% |\n", 100*soakLedgerAgreement)
	}
	return fmt.Sprintf("| the ledger (`hud history --json`) agrees with hud's samples, by time (the first %v of each session left out) | %.2f %% (%.1f s of %.1f s) | ≥ %.0f %% |\n",
		soakLedgerSettle, 100*l.share(), l.agreed.Seconds(), l.counted.Seconds(), 100*soakLedgerAgreement) +
		fmt.Sprintf("| dialogs the soak opened in the ledger, with their subject and how they ended | %d of %d (%d ended otherwise than the key says; %d other waits) | all |\n",
			l.waits-len(l.missing), l.waits, len(l.otherHow), len(l.others))
}

// problems are what fails the soak.
func (l soakLedger) problems() []string {
	if l.err != "" {
		return []string{"the ledger could not be read: " + l.err}
	}
	var out []string
	if l.counted == 0 || l.share() < soakLedgerAgreement {
		var worst []string
		for _, st := range l.stretches[:min(5, len(l.stretches))] {
			worst = append(worst, fmt.Sprintf("%s %s at %s for %v: hud %s, ledger %s", st.proc, shortID(st.session),
				st.start.Format("15:04:05.000"), st.length.Round(time.Millisecond), strings.Join(st.hud, "→"), strings.Join(st.ledger, "→")))
		}
		out = append(out, fmt.Sprintf("the ledger agrees with hud's samples %.2f %% of %.1f s, under %.0f %%; the longest disagreements: %s",
			100*l.share(), l.counted.Seconds(), 100*soakLedgerAgreement, strings.Join(worst, "; ")))
	}
	return append(out, l.missing...)
}
