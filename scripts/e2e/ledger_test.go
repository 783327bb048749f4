package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// ledgerResponseLimit is how far the ledger's response time to a dialog
// may be from the one the rig measured (the dialog on screen to the key,
// the click, `hud answer`): the ledger stamps each change when the lock
// holder sees it, which follows the hook, or Claude's own status, by up
// to a poll.
const ledgerResponseLimit = time.Second

// madeWait is a dialog the rig made and answered, as the ledger must
// have it.
type madeWait struct {
	subject string    // what the wait's "for" holds
	how     string    // how it ended
	choice  string    // the choice named ("" when answered in the terminal)
	shown   time.Time // the dialog on screen
	acted   time.Time // the key pressed, the row clicked, `hud answer` run
}

func (w madeWait) took() time.Duration { return w.acted.Sub(w.shown) }

// ledgerPart is a stretch of the session the ledger must hold whole.
type ledgerPart struct {
	name     string
	from, to time.Time
}

// TestLedger: one session's dialogs answered every way a person answers
// them, and `hud history --json` has each wait with its subject, how it
// ended and the response time the rig measured. A permission answered in
// the terminal after 3 s, one refused with Esc and a question answered in
// the terminal, with no tray running; with the tray running (on a bus of
// the rig's own, its menu clicked as a tray host does), a permission
// allowed from its menu, one allowed and one denied with `hud answer`,
// one answered in the terminal; and the tray stopped, a permission and a
// turn. The lock holders record every state whether a tray runs or not:
// the ledger holds each part whole, and the session's end.
func TestLedger(t *testing.T) {
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))
	begin := time.Now()
	var made []madeWait
	var parts []ledgerPart

	from := time.Now()
	made = append(made, c.answeredInTerminal("touch terminal.txt", 3*time.Second))
	made = append(made, c.refusedWithEsc("touch refused.txt", 1500*time.Millisecond))
	made = append(made, c.questionAnswered("Which database for the ledger?", 2*time.Second))
	parts = append(parts, ledgerPart{"before the tray started", from, time.Now()})

	tray := r.startMenuTray()
	from = time.Now()
	made = append(made, c.answeredFromMenu(tray, "touch tray.txt", 2500*time.Millisecond))
	made = append(made, c.answeredByCommand(id, "touch allowed.txt", "allow", 2*time.Second))
	made = append(made, c.answeredByCommand(id, "touch denied.txt", "deny", 1500*time.Millisecond))
	made = append(made, c.answeredInTerminal("touch beside-tray.txt", 2*time.Second))
	parts = append(parts, ledgerPart{"while the tray ran", from, time.Now()})
	tray.stop()

	from = time.Now()
	made = append(made, c.answeredInTerminal("touch after-tray.txt", 2*time.Second))
	at := c.submit("SLOW:2")
	c.turnEnd(at, 20*time.Second)
	parts = append(parts, ledgerPart{"after the tray stopped", from, time.Now()})

	c.submit("/exit")
	exited := c.waitExit(20 * time.Second)
	s := r.awaitLedgerEnd(id, begin, exited)
	r.checkWaits(s, made, begin)
	r.checkParts(s, parts, begin)
}

// answeredInTerminal asks to run command and answers Yes in the terminal
// after wait.
func (c *claudeProc) answeredInTerminal(command string, wait time.Duration) madeWait {
	c.r.t.Helper()
	c.submit("TOOL:" + command)
	shown := c.waitScreen("the permission dialog for "+command, 20*time.Second, dialogShown)
	time.Sleep(time.Until(shown.Add(wait)))
	at := c.press("Enter")
	c.waitScreen("the dialog closing", 5*time.Second, dialogGone)
	c.turnEnd(at, 20*time.Second)
	return madeWait{subject: command, how: "terminal", shown: shown, acted: at}
}

// refusedWithEsc asks to run command and refuses with Esc after wait.
func (c *claudeProc) refusedWithEsc(command string, wait time.Duration) madeWait {
	c.r.t.Helper()
	c.submit("TOOL:" + command)
	shown := c.waitScreen("the permission dialog for "+command, 20*time.Second, dialogShown)
	time.Sleep(time.Until(shown.Add(wait)))
	at := c.press("Escape")
	c.waitScreen("the denial", 5*time.Second, contains("Interrupted"))
	// Claude fires no hook for the Esc: hud believes Claude's own idle
	// once it has lasted a moment, and the person reads the denial first.
	idle := c.idleAgain(at, 10*time.Second)
	c.r.expect("deny with Esc → ready", idle, turnDone, stepLimit, showing(c.sessionID(), "ready"))
	return madeWait{subject: command, how: "Esc", shown: shown, acted: at}
}

// questionAnswered has Claude ask question and answers it (Enter on the
// first option) in the terminal after wait.
func (c *claudeProc) questionAnswered(question string, wait time.Duration) madeWait {
	c.r.t.Helper()
	c.submit("ASK:" + question)
	shown := c.waitScreen("the question", 20*time.Second, func(s string) bool {
		return strings.Contains(s, question) && strings.Contains(s, "Leave it")
	})
	time.Sleep(time.Until(shown.Add(wait)))
	at := c.press("Enter")
	c.turnEnd(at, 20*time.Second)
	return madeWait{subject: question, how: "terminal", shown: shown, acted: at}
}

// answeredFromMenu asks to run command and allows it from the tray's menu
// after wait.
func (c *claudeProc) answeredFromMenu(tray *menuTray, command string, wait time.Duration) madeWait {
	c.r.t.Helper()
	c.submit("TOOL:" + command)
	shown := c.waitScreen("the permission dialog for "+command, 20*time.Second, dialogShown)
	c.r.awaitRequest("menu", "Bash: "+command)
	row := tray.answerRow(command, "Yes", 10*time.Second)
	time.Sleep(time.Until(shown.Add(wait)))
	at := tray.click(row)
	c.waitScreen("the dialog closing", 5*time.Second, dialogGone)
	c.turnEnd(at, 20*time.Second)
	return madeWait{subject: command, how: "tray", choice: "Yes", shown: shown, acted: at}
}

// answeredByCommand asks to run command and answers key (allow, deny)
// with `hud answer` after wait.
func (c *claudeProc) answeredByCommand(id, command, key string, wait time.Duration) madeWait {
	c.r.t.Helper()
	c.submit("TOOL:" + command)
	shown := c.waitScreen("the permission dialog for "+command, 20*time.Second, dialogShown)
	c.r.awaitRequest(key, "Bash: "+command)
	time.Sleep(time.Until(shown.Add(wait)))
	at := time.Now()
	if out, err := c.r.hud("answer", id[:8], key); err != nil {
		c.r.t.Fatalf("hud answer %s %s: %v\n%s", id[:8], key, err, out)
	}
	c.waitScreen("the dialog closing", 5*time.Second, dialogGone)
	c.turnEnd(at, 20*time.Second)
	w := madeWait{subject: command, how: "hud answer", choice: "Yes", shown: shown, acted: at}
	if key == "deny" {
		w.how, w.choice = "refused", "No"
	}
	return w
}

// awaitLedgerEnd waits for `hud history --json` to show the session
// ended (its last span closed) within killLimit of its process's exit:
// the last lock holder records its own session's end before it goes.
func (r *rig) awaitLedgerEnd(id string, begin, exited time.Time) historySession {
	r.t.Helper()
	var h history
	var err error
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		h, err = r.history(time.Since(begin) + time.Minute)
		s, ok := h.session(id)
		if err == nil && ok && len(s.Spans) > 0 && s.Spans[len(s.Spans)-1].To.Before(exited.Add(killLimit)) {
			return s
		}
		if time.Now().After(deadline) {
			break
		}
	}
	s, _ := h.session(id)
	r.t.Fatalf("the ledger does not show the session %s ended within %v of its exit at %+.3f s (%v); its timeline:\n%s\nhud history --json:\n%s",
		id, killLimit, exited.Sub(begin).Seconds(), err, s.timeline(begin), clip(string(h.raw), 4000))
	return historySession{}
}

// checkWaits checks that the ledger has each wait made once, with its
// subject, how it ended, the choice and a response time within
// ledgerResponseLimit of the one measured, and logs them side by side;
// and that it has no other wait from begin on: one dialog is one wait.
func (r *rig) checkWaits(s historySession, made []madeWait, begin time.Time) {
	r.t.Helper()
	used := map[int]bool{}
	for _, m := range made {
		var found []int
		for i, w := range s.Waits {
			if strings.Contains(w.For, m.subject) {
				found = append(found, i)
			}
		}
		if len(found) != 1 {
			r.t.Errorf("the ledger has %d waits for %q, want 1; the session:\n%s", len(found), m.subject, s.timeline(begin))
			continue
		}
		used[found[0]] = true
		w := s.Waits[found[0]]
		got := time.Duration(w.Response * float64(time.Second))
		diff := got - m.took()
		r.t.Logf("wait %-36q measured %6.3f s, ledger %6.3f s (%+.3f s), from %+.3f s after the screen; how %q, choice %q",
			w.For, m.took().Seconds(), w.Response, diff.Seconds(), w.From.Sub(m.shown).Seconds(), w.How, w.Choice)
		switch {
		case w.How != m.how || w.Choice != m.choice:
			r.t.Errorf("the wait for %q ended %q with choice %q in the ledger, want %q with %q", m.subject, w.How, w.Choice, m.how, m.choice)
		case diff.Abs() > ledgerResponseLimit:
			r.t.Errorf("the wait for %q took %.3f s in the ledger, %.3f s as the rig measured: %+.3f s, over %v; the session:\n%s",
				m.subject, w.Response, m.took().Seconds(), diff.Seconds(), ledgerResponseLimit, s.timeline(begin))
		case w.From.Sub(m.shown).Abs() > ledgerResponseLimit:
			r.t.Errorf("the wait for %q begins %+.3f s from the dialog on screen in the ledger; the session:\n%s",
				m.subject, w.From.Sub(m.shown).Seconds(), s.timeline(begin))
		}
	}
	// Before begin, Claude's startup question waited too.
	for i, w := range s.Waits {
		switch {
		case used[i]:
		case w.From.Before(begin):
			r.t.Logf("the ledger's wait before the scenario: %q from %+.3f s, %s after %.3f s", w.For, w.From.Sub(begin).Seconds(), w.How, w.Response)
		default:
			r.t.Errorf("the ledger has a wait no dialog of the rig's made: %q from %+.3f s, %s after %.3f s; the session:\n%s",
				w.For, w.From.Sub(begin).Seconds(), w.How, w.Response, s.timeline(begin))
		}
	}
}

// checkParts checks that the ledger shows the session ready, working and
// waiting in each part, its spans with no gap from the first to the
// last.
func (r *rig) checkParts(s historySession, parts []ledgerPart, begin time.Time) {
	r.t.Helper()
	for i := 1; i < len(s.Spans); i++ {
		if !s.Spans[i].From.Equal(s.Spans[i-1].To) {
			r.t.Errorf("the ledger's timeline has a gap from %+.3f s to %+.3f s:\n%s",
				s.Spans[i-1].To.Sub(begin).Seconds(), s.Spans[i].From.Sub(begin).Seconds(), s.timeline(begin))
		}
	}
	for _, p := range parts {
		seen := s.statesDuring(p.from, p.to)
		for _, want := range []string{"ready", "working", "waiting"} {
			if !slices.Contains(seen, want) {
				r.t.Errorf("%s (%+.3f s to %+.3f s), the ledger never shows the session %s (it shows %v):\n%s",
					p.name, p.from.Sub(begin).Seconds(), p.to.Sub(begin).Seconds(), want, seen, s.timeline(begin))
			}
		}
		if slices.Contains(seen, "absent") {
			r.t.Errorf("%s, the ledger leaves part of the time out (%v):\n%s", p.name, seen, s.timeline(begin))
		}
	}
}
