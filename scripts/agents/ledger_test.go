package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/tmux"
)

// ledgerResponseLimit is how far the ledger's response time to a dialog
// may be from the one the rig measured (the dialog on screen to the
// key): the ledger stamps each change when the lock holder sees it, a
// moment after the hook.
const ledgerResponseLimit = time.Second

// madeWait is a dialog the rig answered, as the ledger must have it.
type madeWait struct {
	subject string // what the wait's "for" holds
	how     string // how it ended
	shown   time.Time
	acted   time.Time
}

func (w madeWait) took() time.Duration { return w.acted.Sub(w.shown) }

// historyDoc is what TestCodex reads of `hud history --json`.
type historyDoc struct {
	Sessions []historySession `json:"sessions"`
}

type historySession struct {
	Key   string        `json:"key"`
	Waits []historyWait `json:"waits"`
}

type historyWait struct {
	From     time.Time `json:"from"`
	To       time.Time `json:"to"`
	For      string    `json:"for"`
	How      string    `json:"how"`
	Choice   string    `json:"choice"`
	Response float64   `json:"response_s"`
}

// history runs `hud history --json --since since` with the rig's HOME.
func (r *rig) history(since time.Duration) (historyDoc, string, error) {
	cmd := exec.Command(r.s.hud, "history", "--json", "--since", fmt.Sprintf("%ds", int(math.Ceil(since.Seconds()))))
	cmd.Env = append(os.Environ(), "HOME="+r.home, "XDG_CONFIG_HOME=", "CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "COPILOT_HOME=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var doc historyDoc
	switch {
	case err != nil:
		return doc, string(out), fmt.Errorf("hud history --json: %v: %s", err, stderr.String())
	case json.Unmarshal(out, &doc) != nil:
		return doc, string(out), fmt.Errorf("hud history --json printed no JSON object")
	}
	return doc, string(out), nil
}

// dialogShown waits for the dialog and returns the moment the person could
// first see it: on the screen (what), or in hud (the session waiting), which
// for Codex comes first: it runs its hook before it draws the dialog.
func (r *rig) dialogShown(p *tmux.Pane, what string) time.Time {
	r.t.Helper()
	for deadline := time.Now().Add(stepLimit); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		at := time.Now()
		if strings.Contains(p.Capture(), what) {
			return at
		}
		if got, _ := r.sessions(); slices.ContainsFunc(got, func(s session) bool { return s.State == "waiting" }) {
			r.waitScreen(p, what)
			return at
		}
	}
	r.t.Fatalf("the screen never showed %q\n%s", what, r.diagnostics())
	return time.Time{}
}

// answerAfter answers the dialog shown at shown with key wait after, and
// returns the wait as the ledger must have it.
func (r *rig) answerAfter(p *tmux.Pane, shown time.Time, key string, wait time.Duration, subject, how string) madeWait {
	r.t.Helper()
	time.Sleep(time.Until(shown.Add(wait)))
	acted := time.Now()
	r.keys(p, key)
	return madeWait{subject: subject, how: how, shown: shown, acted: acted}
}

// expectLedger checks that `hud history --json` has the session's waits
// the rig made, once each, ended as they were, with response times
// within ledgerResponseLimit of those the rig measured, and logs each
// beside the rig's measure.
func (r *rig) expectLedger(id string, begin time.Time, made []madeWait) {
	r.t.Helper()
	var raw string
	var err error
	for deadline := time.Now().Add(stepLimit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var doc historyDoc
		doc, raw, err = r.history(time.Since(begin) + time.Minute)
		if s, ok := doc.session(id); err == nil && ok && s.ended(made) {
			r.checkWaits(s, made)
			return
		}
	}
	r.t.Fatalf("the ledger never had the waits of session %s ended (%v); hud history --json:\n%s", id, err, raw)
}

func (doc historyDoc) session(id string) (historySession, bool) {
	for _, s := range doc.Sessions {
		if s.Key == id {
			return s, true
		}
	}
	return historySession{}, false
}

// ended reports whether s has a wait for each of made and none still open.
func (s historySession) ended(made []madeWait) bool {
	for _, m := range made {
		if !slices.ContainsFunc(s.Waits, func(w historyWait) bool { return strings.Contains(w.For, m.subject) }) {
			return false
		}
	}
	return !slices.ContainsFunc(s.Waits, func(w historyWait) bool { return w.How == "still open" })
}

// checkWaits checks each wait of made in s.
func (r *rig) checkWaits(s historySession, made []madeWait) {
	r.t.Helper()
	for _, m := range made {
		var found []historyWait
		for _, w := range s.Waits {
			if strings.Contains(w.For, m.subject) {
				found = append(found, w)
			}
		}
		if len(found) != 1 {
			r.t.Errorf("the ledger has %d waits for %q, want 1: %+v", len(found), m.subject, s.Waits)
			continue
		}
		w := found[0]
		diff := time.Duration(w.Response*float64(time.Second)) - m.took()
		r.t.Logf("wait %-28q measured %6.3f s, ledger %6.3f s (%+.3f s), from %+.3f s after the screen; how %q",
			w.For, m.took().Seconds(), w.Response, diff.Seconds(), w.From.Sub(m.shown).Seconds(), w.How)
		if w.How != m.how {
			r.t.Errorf("the wait for %q ended %q in the ledger, want %q", m.subject, w.How, m.how)
		}
		if diff.Abs() > ledgerResponseLimit {
			r.t.Errorf("the wait for %q took %.3f s in the ledger, %.3f s as the rig measured: over %v apart",
				m.subject, w.Response, m.took().Seconds(), ledgerResponseLimit)
		}
	}
}
