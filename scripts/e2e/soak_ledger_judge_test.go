package e2e

import (
	"strings"
	"testing"
	"time"
)

func TestSoakLedger(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// Samples of session "s" every 250 ms from 0 to 3000 ms, each `hud
	// status` taking 50 ms: ready, working from 1500 ms, ready again
	// from 2500 ms.
	hudAt := func(ms int) string {
		if ms >= 1500 && ms < 2500 {
			return "working"
		}
		return "ready"
	}
	var samples []soakSample
	for ms := 0; ms <= 3000; ms += 250 {
		samples = append(samples, soakSample{at: at(ms), took: 50 * time.Millisecond, proc: "main", session: "s", claude: "idle", hud: hudAt(ms)})
	}
	spans := func(working, ready int) []historySpan {
		return []historySpan{{at(-100), at(working), "ready"}, {at(working), at(ready), "working"}, {at(ready), at(4000), "ready"}}
	}
	cases := []struct {
		name    string
		spans   []historySpan
		counted time.Duration
		agreed  time.Duration
		longest time.Duration
	}{
		// The first second is left out: 1000…3000 ms, nine samples.
		{name: "the ledger says what hud showed", spans: spans(1480, 2490), counted: 2250 * time.Millisecond, agreed: 2250 * time.Millisecond},
		// Stamped after the `hud status` that showed working returned:
		// that sample (1500 ms) disagrees.
		{name: "the ledger a moment late", spans: spans(1520, 2490), counted: 2250 * time.Millisecond, agreed: 2000 * time.Millisecond, longest: 250 * time.Millisecond},
		// Stamped while that `hud status` ran (1450…1500 ms): it agrees.
		{name: "the ledger within the sample's own time", spans: spans(1470, 2470), counted: 2250 * time.Millisecond, agreed: 2250 * time.Millisecond},
		{name: "no ledger at all", counted: 2250 * time.Millisecond, longest: 2250 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := history{}
			if c.spans != nil {
				h.Sessions = []historySession{{Key: "s", Spans: c.spans}}
			}
			l := judgeLedger(samples, nil, h)
			if l.counted != c.counted || l.agreed != c.agreed {
				t.Errorf("agreed %v of %v, want %v of %v", l.agreed, l.counted, c.agreed, c.counted)
			}
			longest := time.Duration(0)
			if len(l.stretches) > 0 {
				longest = l.stretches[0].length
			}
			if longest != c.longest {
				t.Errorf("the longest disagreement %v, want %v (%+v)", longest, c.longest, l.stretches)
			}
		})
	}
}

func TestSoakLedgerAbsent(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	var samples []soakSample
	for ms := 0; ms <= 2000; ms += 250 {
		samples = append(samples, soakSample{at: t0.Add(time.Duration(ms) * time.Millisecond), took: 20 * time.Millisecond,
			proc: "main", session: "gone", claude: "idle", hud: "absent"})
	}
	l := judgeLedger(samples, nil, history{})
	if l.share() != 1 {
		t.Errorf("a session hud does not list and the ledger has no span of: agreed %v of %v, want all", l.agreed, l.counted)
	}
}

func TestSoakLedgerWaits(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	h := history{Sessions: []historySession{{Key: "s", Waits: []historyWait{
		{From: at(10), To: at(12), For: "Bash: touch soak-1.txt", How: "terminal"},
		{From: at(20), To: at(21), For: "Bash: touch soak-2.txt", How: "terminal"},
		{From: at(30), To: at(40), For: "plan approval", How: "still open"},
		{From: at(100), To: at(101), For: "plan approval", How: "Esc"},
	}}}}
	waits := []soakWait{
		{proc: "main", session: "s", subject: "touch soak-1.txt", how: "terminal", shown: at(10), acted: at(12)},
		{proc: "main", session: "s", subject: "touch soak-2.txt", how: "Esc", shown: at(20), acted: at(21)},
		{proc: "main", session: "s", subject: "plan approval", how: "terminal", shown: at(30), acted: at(31)},
		{proc: "main", session: "s", subject: "touch soak-3.txt", how: "terminal", shown: at(50), acted: at(51)},
		// A plan dialog long after the ledger's: not that one.
		{proc: "main", session: "s", subject: "plan approval", how: "Esc", shown: at(60), acted: at(61)},
	}
	l := judgeLedger(nil, waits, h)
	if l.waits != 5 || len(l.missing) != 3 || len(l.otherHow) != 1 {
		t.Fatalf("%d waits, missing %q, ended otherwise %q; want 5, 3 missing (open, absent, too far), 1 otherwise", l.waits, l.missing, l.otherHow)
	}
	for i, want := range []string{"still open", "soak-3.txt", "plan approval"} {
		if !strings.Contains(l.missing[i], want) {
			t.Errorf("missing[%d] = %q, want it to name %q", i, l.missing[i], want)
		}
	}
	if !strings.Contains(l.otherHow[0], "soak-2.txt") {
		t.Errorf("ended otherwise: %q, want soak-2.txt's", l.otherHow[0])
	}
}

func TestSoakLedgerProblems(t *testing.T) {
	cases := []struct {
		name  string
		l     soakLedger
		count int      // how many problems
		names []string // what they say among them
	}{
		{"agrees enough", soakLedger{counted: 100 * time.Second, agreed: 99 * time.Second}, 0, nil},
		{"agrees too little", soakLedger{counted: 100 * time.Second, agreed: 98900 * time.Millisecond,
			stretches: []ledgerStretch{{proc: "main", session: "0123456789", length: time.Second, hud: []string{"working"}, ledger: []string{"ready"}}}},
			1, []string{"98.90 %", "main 01234567", "hud working, ledger ready"}},
		{"nothing compared", soakLedger{}, 1, []string{"0.00 % of 0.0 s"}},
		{"not read", soakLedger{err: "exit status 2"}, 1, []string{"could not be read: exit status 2"}},
		{"a wait missing", soakLedger{counted: time.Second, agreed: time.Second, missing: []string{`main: "touch x" is not in the ledger`}},
			1, []string{"touch x"}},
	}
	for _, c := range cases {
		got := c.l.problems()
		if len(got) != c.count {
			t.Errorf("%s: problems %q, want %d", c.name, got, c.count)
		}
		for _, name := range c.names {
			if !strings.Contains(strings.Join(got, "\n"), name) {
				t.Errorf("%s: problems %q, want one saying %q", c.name, got, name)
			}
		}
	}
}
