package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// promptLimit is how long a Claude Code process may take to reach its
// prompt.
const promptLimit = 30 * time.Second

// promptSettle is how long Claude must stay at its prompt, after it
// starts, before the rig types: 2.1.330 draws its prompt and says "idle"
// about 100 ms before it opens a startup question in the prompt's place,
// and a person typing in that moment answers the question unawares.
const promptSettle = time.Second

// startupQuestions are the questions Claude Code may ask before its first
// prompt, each with the answer a person set up like the rig would give.
// Claude's own session file says "waiting" while one is open.
var startupQuestions = []struct{ question, answer string }{
	// 2.1.330, once per HOME when settings.json names a permission mode
	// (the rig names "default": see makeRig).
	{"Make auto mode your default permission mode?", "No, keep manual mode"},
}

// awaitPrompt waits until an interactive claude is at its prompt, answering
// any startup question on the way, and returns the session id. With the
// hooks wired it checks, the moment the prompt shows, that the HUD lists
// the session ready under Claude's pid.
func (c *claudeProc) awaitPrompt() string {
	c.r.t.Helper()
	id, err := c.atPrompt(promptLimit)
	if err != nil {
		c.r.t.Fatal(err)
	}
	return id
}

// atPrompt waits until Claude is at its prompt, as Claude itself says it:
// its ~/.claude/sessions/<pid>.json written and "idle" (or without a
// status, as print mode and older releases write it). The screen is
// read only to see that the input box is drawn (no dialog in its place)
// and to answer a startup question, which Claude marks "waiting". It
// returns the session id.
func (c *claudeProc) atPrompt(timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	answered := map[string]bool{}
	var screen string
	var atPromptSince time.Time // zero while not at the prompt
	for time.Now().Before(deadline) {
		screen = c.pane.capture()
		cs, err := c.claudeState()
		atPrompt := err == nil && (cs.Status == "idle" || cs.Status == "") && inputBoxShown(screen)
		switch {
		case atPrompt:
			if atPromptSince.IsZero() {
				atPromptSince = time.Now()
				if c.r.hooked && c.ready.IsZero() {
					c.ready = atPromptSince
					c.r.expectStarted(c, cs.SessionID)
				}
			}
			if len(answered) > 0 || time.Since(atPromptSince) >= promptSettle {
				c.ready = atPromptSince
				return cs.SessionID, nil
			}
		case err == nil && cs.Status == "waiting":
			atPromptSince = time.Time{}
			q, ok := startupQuestion(screen)
			if !ok || answered[q] {
				break // drawn in a moment, or being closed
			}
			if err := c.answerStartupQuestion(cs.SessionID, q); err != nil {
				return "", err
			}
			answered[q] = true
		default:
			atPromptSince = time.Time{}
		}
		time.Sleep(25 * time.Millisecond)
	}
	cs, err := c.claudeState()
	said := fmt.Sprintf("status %q %s", cs.Status, cs.WaitingFor)
	if err != nil {
		said = err.Error()
	}
	return "", fmt.Errorf("the Claude Code CLI (%s, %s) did not reach its prompt within %v; its session file: %s; screen:\n%s\nstand-in log:\n%s",
		c.name, c.r.s.version, timeout, said, lastLines(screen, 30), c.r.s.apiLog.tail(10))
}

// startupQuestion finds a known startup question on screen.
func startupQuestion(screen string) (string, bool) {
	for _, q := range startupQuestions {
		if strings.Contains(screen, q.question) {
			return q.question, true
		}
	}
	return "", false
}

// answerStartupQuestion checks that the HUD shows the session waiting
// while the question is open (Claude waits for the person), then picks
// the question's answer as a person does: arrow keys to it, Enter.
func (c *claudeProc) answerStartupQuestion(sessionID, question string) error {
	shown := time.Now()
	if c.r.hooked {
		c.r.expect(c.prefix()+"startup question → waiting", shown, "question on screen", stepLimit, showing(sessionID, "waiting"))
	}
	var answer string
	for _, q := range startupQuestions {
		if q.question == question {
			answer = q.answer
		}
	}
	c.r.t.Logf("%s: Claude Code asks %q; answering %q", c.name, question, answer)
	time.Sleep(time.Until(shown.Add(readingTime)))
	for range 10 {
		screen := c.pane.capture()
		selected, found := menuSelection(screen, answer)
		if !found {
			return fmt.Errorf("%s: the question %q offers no %q; screen:\n%s", c.name, question, answer, lastLines(screen, 20))
		}
		if selected {
			c.answered = time.Now()
			return c.pane.keys("Enter")
		}
		// One Down, then wait for the mark to move before the next: the
		// menu wraps around, so a key sent twice can land on the wrong
		// answer; one that was not taken is sent again.
		before := selectedOption(screen)
		if err := c.pane.keys("Down"); err != nil {
			return err
		}
		c.pane.waitScreen(time.Second, func(s string) bool { return selectedOption(s) != before })
	}
	return fmt.Errorf("%s: could not move the selection to %q", c.name, answer)
}

// menuSelection finds the menu line offering option, and whether the
// selection mark (❯) is on it.
func menuSelection(screen, option string) (selected, found bool) {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, option) {
			return strings.HasPrefix(strings.TrimSpace(line), "❯"), true
		}
	}
	return false, false
}

// selectedOption is the menu line the selection mark (❯, indented) is on.
func selectedOption(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "❯") && t != line {
			return t
		}
	}
	return ""
}

// inputBoxShown is true while Claude's input box is drawn: a prompt line
// (❯ in the first column) right under a rule. A dialog or question takes
// its place; a menu's selection mark is indented.
func inputBoxShown(screen string) bool {
	lines := strings.Split(screen, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "❯") && strings.HasPrefix(lines[i-1], "─") {
			return true
		}
	}
	return false
}

// prefix names the process in a step when the scenario runs several.
func (c *claudeProc) prefix() string {
	if len(c.r.procs) > 1 {
		return c.name + ": "
	}
	return ""
}

// TestStartupQuestion: 2.1.330 asks once per HOME, when settings.json names
// a permission mode, whether to make auto mode the default. Claude waits
// for the person, and fires no hook: the HUD shows the session waiting
// (from Claude's own session file) for as long as the question is open,
// and ready once it is answered.
func TestStartupQuestion(t *testing.T) {
	needClient(t, "2.1.330", "the auto-mode question at start")
	r := newRig(t, "proj")
	c := r.launch("claude", r.dir("proj"))
	question := startupQuestions[0].question
	shown := c.waitScreen("the startup question", promptLimit, contains(question))
	var id string
	for id == "" && time.Since(shown) < stepLimit {
		id = c.sessionID()
		time.Sleep(10 * time.Millisecond)
	}
	r.expect("question on screen → waiting", shown, "question on screen", stepLimit, showing(id, "waiting"))
	// Past the 5 s after which an idle file turns a record ready, and the
	// 6 s after which a dialog's Notification fires.
	stillOpen := func() bool { return time.Since(shown) > 8*time.Second }
	r.expectThroughout("left open 8 s → still waiting", "question on screen", 10*time.Second, stillOpen, showing(id, "waiting"))
	if got := c.awaitPrompt(); got != id {
		t.Fatalf("the session is %s after the answer, %s before", got, id)
	}
	r.expect("answered → ready", c.answered, "Enter", stepLimit, showing(id, "ready"))
}
