package e2e

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// planMode switches to plan mode (Shift+Tab), has Claude present a plan,
// approves or rejects it, and returns to manual mode.
func (k *soaker) planMode() error {
	c := k.target()
	if err := k.cycleMode(c, "plan mode on"); err != nil {
		return err
	}
	sent, err := k.send(c, fmt.Sprintf("PLAN:Tidy the soak's files (%d)", k.next()))
	if err != nil {
		return err
	}
	// A key sent while the dialog still draws its choices is lost.
	shown, err := k.waitFor(c, "plan dialog", soakTimeout, func(s string) bool {
		return dialog("Exit plan mode?")(s) && strings.Contains(s, "2. No")
	})
	if err != nil {
		return err
	}
	time.Sleep(time.Until(shown.Add(readingTime)))
	key, what := "Enter", "approve the plan (Enter)"
	if k.rng.Intn(2) == 0 {
		key, what = "Escape", "reject the plan (Esc)"
	}
	at, err := k.press(c, key, what)
	if err != nil {
		return err
	}
	k.noteWait(c, "plan approval", shown, at, key)
	if err := k.settle(c, sent, true, soakTimeout); err != nil {
		return err
	}
	return k.manualMode(c)
}

// The permission modes' footers; manual mode has none of these.
var modeFooters = []string{"accept edits on", "plan mode on", "auto mode on"}

func (k *soaker) manualMode(c *claudeProc) error {
	return k.cycleMode(c, "")
}

// cycleMode presses Shift+Tab until the footer says footer ("": manual
// mode, no mode footer), each press once the last one has shown.
func (k *soaker) cycleMode(c *claudeProc, footer string) error {
	in := func(s string) bool {
		if footer != "" {
			return strings.Contains(s, footer)
		}
		return !slices.ContainsFunc(modeFooters, func(f string) bool { return strings.Contains(s, f) })
	}
	for range len(modeFooters) + 2 {
		before := c.pane.capture()
		if in(before) {
			return nil
		}
		if _, err := k.press(c, "BTab", "Shift+Tab"); err != nil {
			return err
		}
		c.pane.waitScreen(2*time.Second, func(s string) bool { return lastLines(s, 2) != lastLines(before, 2) })
	}
	return fmt.Errorf("%s: Shift+Tab never reached the mode %q; screen:\n%s", c.name, footer, lastLines(c.pane.capture(), 6))
}
