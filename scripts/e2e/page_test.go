package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// pageLimit: a dialog on the terminal's screen shows on the page, its
// session waiting with the dialog and its choices, within this.
const pageLimit = time.Second

// pageClosedLimit: a dialog answered in the terminal is gone from the page
// within this of the terminal: the tray within closedLimit, the page
// within a second of the tray (docs/web.md).
const pageClosedLimit = 2 * closedLimit

// TestPage: the page (hud/web) the tray serves, in a headless chromium
// on a phone's screen, against the real CLI. Unpaired, it shows nothing;
// the link of `hud serve --pair` pairs the browser and lands on the
// session. A permission dialog shows on the page within a second of the
// terminal; Yes tapped runs the tool and Claude goes on; No tapped denies
// it. A dialog answered in the terminal leaves the page within two
// seconds, and a late tap is refused as too late, with nothing sent.
func TestPage(t *testing.T) {
	s := needSuite(t)
	chromium := needChromium(t, s)
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))
	base, link := r.startPageTray()
	p := newPhone(t, chromium)

	p.open(base + "/")
	p.must("the page for browsers not paired", id, 5*time.Second, func(v pageView) bool {
		return v.Title == "hud: not paired" && !v.Found
	})
	p.open(link)
	v := p.must("the session, on / after pairing", id, 10*time.Second, func(v pageView) bool {
		return v.Path == "/" && v.Found
	})
	if v.Hash != "" {
		t.Errorf("the pairing code stayed in the address bar: %q", v.Hash)
	}
	if !strings.Contains(" "+v.Classes+" ", " ready ") {
		t.Errorf("the page shows the session at its prompt as %q (%s), want ready", v.Classes, v.State)
	}
	t.Logf("paired; the page shows %q: %s", v.Name, v.State)

	r.pageAllows(c, p, id)
	r.pageDenies(c, p, id)
	r.pageTooLate(c, p, id)
	p.checkConsole()
}

// pageShowsDialog waits for the page to show session id waiting with a
// dialog about command and its choices, within pageLimit of the dialog
// shown on the terminal's screen, and returns what it shows.
func (r *rig) pageShowsDialog(p *phone, id string, shown time.Time, command string) pageView {
	r.t.Helper()
	v, wait, ok := p.await(id, shown, pageLimit, func(v pageView) bool {
		return v.waiting() && v.Dialog && strings.Contains(v.Subject, command) && len(v.Choices) >= 2
	})
	r.record("dialog on screen → on the page", "waiting, the dialog and its choices", "dialog on screen", wait, pageLimit, ok)
	if !ok {
		out, _ := r.hud("answer")
		r.t.Fatalf("the page shows:\n%s\nhud answer says:\n%s\nhook log:\n%s", v, out, r.hookLogTail(10))
	}
	var labels []string
	for _, c := range v.Choices {
		labels = append(labels, c.Label+" ("+c.Choice+")")
	}
	r.t.Logf("the page offers %s for %q", strings.Join(labels, " / "), v.Subject)
	return v
}

// answered: the page's note says the server took the answer labelled
// label to the dialog about command.
func answered(label, command string) func(pageView) bool {
	return func(v pageView) bool {
		return strings.HasPrefix(v.Note, "Answered") && strings.Contains(v.Note, `"`+label+`"`) && strings.Contains(v.Note, command)
	}
}

// pageAllows: a dialog shown on the page, Yes tapped there (the first
// choice: allow) runs the tool, and Claude goes on to its turn's end.
func (r *rig) pageAllows(c *claudeProc, p *phone, id string) {
	r.t.Helper()
	const command = "touch yes.txt"
	c.submit("TOOL:" + command)
	shown := c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	v := r.pageShowsDialog(p, id, shown, command)
	r.savePageShot(p.screenshot())
	yes := v.Choices[0]
	if yes.Choice != "allow" || yes.Deny {
		r.t.Fatalf("the page's first choice is %q (%s), want Yes, allow:\n%s", yes.Label, yes.Choice, v)
	}
	tapped := p.tap("#s-" + id + " button.choice")
	on := c.goesOn(10 * time.Second)
	r.t.Logf("Yes tapped: Claude took the answer %v later", on.Sub(tapped).Round(time.Millisecond))
	r.expect("Yes tapped on the page, Claude goes on → working or ready", on, "Claude goes on", stepLimit, notWaiting(id))
	c.waitScreen("the hook's decision shown", 5*time.Second, contains("Allowed by PermissionRequest hook"))
	end := c.turnEnd(tapped, 20*time.Second)
	r.expect("allowed from the page, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
	if _, ok := r.fileText("proj/yes.txt"); !ok {
		r.t.Fatal("the command allowed from the page did not run")
	}
	p.must(`the note "Answered"`, id, 5*time.Second, answered(yes.Label, command))
	p.must("the session ready, no dialog", id, 5*time.Second, func(v pageView) bool {
		return !v.waiting() && !v.Dialog
	})
}

// pageDenies: No tapped on the page (button.choice.deny) denies the tool:
// it does not run, and Claude's turn says the hook denied it.
func (r *rig) pageDenies(c *claudeProc, p *phone, id string) {
	r.t.Helper()
	const command = "touch no.txt"
	c.submit("TOOL:" + command)
	shown := c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	v := r.pageShowsDialog(p, id, shown, command)
	var no pageChoice
	for _, ch := range v.Choices {
		if ch.Deny {
			no = ch
		}
	}
	if no.Choice != "deny" {
		r.t.Fatalf("the page offers no deny choice (button.choice.deny, data-choice=deny):\n%s", v)
	}
	tapped := p.tap("#s-" + id + " button.choice.deny")
	on := c.goesOn(10 * time.Second)
	r.t.Logf("No tapped: Claude took the answer %v later", on.Sub(tapped).Round(time.Millisecond))
	r.expect("No tapped on the page, Claude goes on → working or ready", on, "Claude goes on", stepLimit, notWaiting(id))
	c.waitScreen("the denial", 5*time.Second, contains("Denied by PermissionRequest hook"))
	end := c.turnEnd(tapped, 20*time.Second)
	r.expect("denied from the page, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
	if _, ok := r.fileText("proj/no.txt"); ok {
		r.t.Fatal("the command denied from the page ran")
	}
	p.must(`the note "Answered" with No`, id, 5*time.Second, answered(no.Label, command))
}

// pageTooLate: a dialog answered in the terminal leaves the page within
// pageClosedLimit; a tap on it after that, by hand (fetch, as app.js
// posts) or on the button as the page last drew it, is refused as too
// late, the page says so, and nothing is answered twice.
func (r *rig) pageTooLate(c *claudeProc, p *phone, id string) {
	r.t.Helper()
	const command = "echo once >> late.txt"
	c.submit("SLOW:2 TOOL:" + command)
	shown := c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	v := r.pageShowsDialog(p, id, shown, "late.txt")
	yes := v.Choices[0]
	pressed := c.answer(shown, "Enter") // "1. Yes" is selected
	gone := c.waitScreen("the dialog closing", 5*time.Second, dialogGone)
	v, wait, ok := p.await(id, gone, pageClosedLimit, func(v pageView) bool { return v.Found && !v.Dialog })
	r.record("answered in the terminal → off the page", "the card without its dialog", "dialog gone from screen", wait, pageClosedLimit, ok)
	if !ok {
		out, _ := r.hud("answer")
		r.t.Fatalf("the page shows:\n%s\nhud answer says:\n%s", v, out)
	}

	status, text := p.postAnswer(yes, "deny")
	r.t.Logf("a late answer posted from the page: %d %q", status, text)
	if status != http.StatusConflict || !strings.HasPrefix(text, "Too late") {
		r.t.Errorf("a late answer from the page got %d %q, want %d and Too late", status, text, http.StatusConflict)
	}
	p.tapStale(yes)
	v = p.must(`the note "Too late"`, id, 5*time.Second, func(v pageView) bool { return strings.HasPrefix(v.Note, "Too late") })
	r.t.Logf("a late tap on the page: the note says %q", v.Note)

	end := c.turnEnd(pressed, 20*time.Second)
	r.expect("answered in the terminal, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
	if got, _ := r.fileText("proj/late.txt"); got != "once\n" {
		r.t.Errorf("the command allowed in the terminal wrote %q, want it run once: %q", got, "once\n")
	}
}
