package e2e

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// soaker drives the CLI at random: one step after another, each left when
// Claude is back at its prompt, until the deadline.
type soaker struct {
	r        *rig
	rng      *rand.Rand
	sampler  *soakSampler
	main     *claudeProc
	second   *claudeProc // the second session in the same folder; nil while closed
	opened   int         // second sessions opened so far
	deadline time.Time
	steps    []soakStep
	counts   map[string]int
	problems []string
	waits    []soakWait // the dialogs it opened and answered
	n        int        // numbers the files, scripts and prompts
	// longIdles counts the gaps long enough for Claude's idle
	// notification; there are at most maxLongIdles.
	longIdles, maxLongIdles int
}

// soakKind is one kind of step a person takes, with how often the soak
// picks it relative to the others.
type soakKind struct {
	name   string
	weight int
	run    func(k *soaker) error
}

var soakKinds = []soakKind{
	{"prompt, short", 12, (*soaker).shortPrompt},
	{"prompt, long answer", 8, (*soaker).longPrompt},
	{"Esc mid-answer", 8, (*soaker).escMidAnswer},
	{"Esc mid-tool", 6, (*soaker).escMidTool},
	{"permission approved", 6, func(k *soaker) error { return k.permission("Enter", "approve (Enter)") }},
	{"permission denied", 4, func(k *soaker) error { return k.permission("Escape", "deny (Esc)") }},
	{"permission, don't ask again", 3, (*soaker).dontAskAgain},
	{"question answered", 4, func(k *soaker) error { return k.question("Enter", "answer (Enter)") }},
	{"question dismissed", 3, func(k *soaker) error { return k.question("Escape", "dismiss (Esc)") }},
	{"plan mode", 3, (*soaker).planMode},
	{"background subagent", 4, (*soaker).backgroundAgent},
	{"foreground subagent", 3, (*soaker).foregroundAgent},
	{"/compact", 2, func(k *soaker) error { return k.command("/compact") }},
	{"/clear", 2, func(k *soaker) error { return k.command("/clear") }},
	{"second session opened or closed", 3, (*soaker).toggleSecond},
	{"idle gap", 8, (*soaker).idleGap},
	{soakLongIdleKind, 1, (*soaker).longIdle},
}

const soakLongIdleKind = "idle past the 60 s notification"

// soakTimeout bounds every wait for the CLI: generous, since a loaded
// machine is slow, yet a stuck step still ends.
const soakTimeout = 30 * time.Second

// loop runs steps until the deadline: first every kind once, in an order
// of the seed's (so the short run in `make test` covers them all), then
// kinds picked at random by weight. The long idle, which would take half
// the short run, comes only at random.
func (k *soaker) loop() {
	var first []soakKind
	total := 0
	for _, kind := range soakKinds {
		total += kind.weight
		if kind.name != soakLongIdleKind {
			first = append(first, kind)
		}
	}
	k.rng.Shuffle(len(first), func(i, j int) { first[i], first[j] = first[j], first[i] })
	for i := 0; time.Now().Before(k.deadline); i++ {
		var kind soakKind
		if i < len(first) {
			kind = first[i]
		} else {
			kind = pickKind(k.rng.Intn(total))
		}
		k.counts[kind.name]++
		if err := kind.run(k); err != nil {
			k.problems = append(k.problems, fmt.Sprintf("%s (+%.1f s): %v", kind.name, time.Since(k.steps[0].at).Seconds(), err))
			if err := k.recover(); err != nil {
				k.problems = append(k.problems, "the run stopped: "+err.Error())
				return
			}
		}
	}
}

// pickKind is the kind at pick in the weights' sum (0 ≤ pick < the sum).
func pickKind(pick int) soakKind {
	for _, kind := range soakKinds {
		if pick < kind.weight {
			return kind
		}
		pick -= kind.weight
	}
	return soakKinds[len(soakKinds)-1]
}

// target is the session a step drives: the main one, or now and then the
// second when it is open.
func (k *soaker) target() *claudeProc {
	if k.second != nil && k.rng.Intn(10) < 3 {
		return k.second
	}
	return k.main
}

func (k *soaker) next() int { k.n++; return k.n }

// mark records a moment the soak acted, for "the step before" a
// disagreement.
func (k *soaker) mark(c *claudeProc, what string) {
	step := soakStep{at: time.Now(), name: what}
	if c != nil {
		step.proc, step.name = c.name, c.name+": "+what
	}
	k.steps = append(k.steps, step)
}

// send clears c's input line, types text, waits until it shows, and
// presses Enter; it returns the moment of the Enter.
func (k *soaker) send(c *claudeProc, text string) (time.Time, error) {
	if err := k.clearInput(c); err != nil {
		return time.Time{}, err
	}
	if err := c.pane.typeText(text); err != nil {
		return time.Time{}, err
	}
	if _, err := k.waitFor(c, "the typed text", 10*time.Second, contains("❯ "+text)); err != nil {
		return time.Time{}, err
	}
	k.mark(c, fmt.Sprintf("sent %q", clip(text, 32)))
	at := time.Now()
	return at, c.pane.keys("Enter")
}

// clearInput empties c's input line (Ctrl+U), which holds a prompt
// Claude put back after an Esc that came before the answer's first word.
func (k *soaker) clearInput(c *claudeProc) error {
	for range 3 {
		if err := c.pane.keys("C-u"); err != nil {
			return err
		}
		if _, ok := c.pane.waitScreen(2*time.Second, func(s string) bool { return inputLine(s) == "" }); ok {
			return nil
		}
	}
	return fmt.Errorf("%s: the input line does not clear; screen:\n%s", c.name, lastLines(c.pane.capture(), 8))
}

// inputLine is the text in Claude's input box ("" when empty or not drawn).
func inputLine(screen string) string {
	lines := strings.Split(screen, "\n")
	for i := 1; i < len(lines); i++ {
		if text, ok := strings.CutPrefix(lines[i], "❯"); ok && strings.HasPrefix(lines[i-1], "─") {
			return strings.TrimSpace(text)
		}
	}
	return ""
}

// press sends key to c and returns its moment.
func (k *soaker) press(c *claudeProc, key, what string) (time.Time, error) {
	k.mark(c, what)
	at := time.Now()
	return at, c.pane.keys(key)
}

func (k *soaker) waitFor(c *claudeProc, what string, timeout time.Duration, ok func(string) bool) (time.Time, error) {
	screen, shown := c.pane.waitScreen(timeout, ok)
	if !shown {
		return time.Time{}, fmt.Errorf("%s showed no %s within %v; screen:\n%s", c.name, what, timeout, lastLines(screen, 15))
	}
	return time.Now(), nil
}

// dialog: marker on screen where the input box was (a dialog takes its
// place; the same words in the transcript above do not count).
func dialog(marker string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, marker) && !inputBoxShown(s) }
}

// settle waits until c is back at its prompt as Claude itself says it:
// "idle" (changed at or after since, when changed: the step's Enter, so
// that a turn over before its Esc still counts), the input box drawn,
// no spinner, for a moment on end. Without changed it waits longer, so
// that a step Claude takes up late (a /compact) is not missed.
func (k *soaker) settle(c *claudeProc, since time.Time, changed bool, timeout time.Duration) error {
	hold := 500 * time.Millisecond
	if !changed {
		hold = time.Second
	}
	deadline := time.Now().Add(timeout)
	var held time.Time
	var cs claudeSession
	var err error
	for time.Now().Before(deadline) {
		cs, err = c.claudeState()
		screen := c.pane.capture()
		ok := err == nil && cs.Status == "idle" && inputBoxShown(screen) && !strings.Contains(screen, "esc to interrupt") &&
			(!changed || time.UnixMilli(cs.StatusUpdatedAt).After(since.Add(-time.Millisecond)))
		switch {
		case !ok:
			held = time.Time{}
		case held.IsZero():
			held = time.Now()
		case time.Since(held) >= hold:
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s not back at its prompt within %v (Claude says %q, %v); screen:\n%s",
		c.name, timeout, cs.Status, err, lastLines(c.pane.capture(), 15))
}

// recover brings every open session back to its prompt, in manual mode,
// after a step that went other than planned.
func (k *soaker) recover() error {
	for _, c := range []*claudeProc{k.main, k.second} {
		if c == nil {
			continue
		}
		var err error
		for range 3 {
			_ = c.pane.keys("Escape")
			time.Sleep(500 * time.Millisecond)
			_ = c.pane.keys("C-u")
			if err = k.settle(c, time.Time{}, false, 20*time.Second); err == nil {
				err = k.manualMode(c)
			}
			if err == nil {
				break
			}
		}
		if err != nil {
			return err
		}
	}
	k.mark(nil, "recovered")
	return nil
}

func (k *soaker) shortPrompt() error {
	c := k.target()
	at, err := k.send(c, fmt.Sprintf("hello %d", k.next()))
	if err != nil {
		return err
	}
	return k.settle(c, at, true, soakTimeout)
}

func (k *soaker) longPrompt() error {
	c := k.target()
	secs := 3 + k.rng.Intn(8)
	at, err := k.send(c, fmt.Sprintf("SLOW:%d tell me at length how the pieces of this project fit together (%d)", secs, k.next()))
	if err != nil {
		return err
	}
	return k.settle(c, at, true, soakTimeout+time.Duration(secs)*time.Second)
}

// escMidAnswer interrupts a slow answer some time into it (now and then
// before its first word, when Claude puts the prompt back in the input box).
func (k *soaker) escMidAnswer() error {
	c := k.target()
	sent, err := k.send(c, fmt.Sprintf("SLOW:40 a long answer to interrupt (%d)", k.next()))
	if err != nil {
		return err
	}
	if _, err := k.waitFor(c, "spinner", soakTimeout, contains("esc to interrupt")); err != nil {
		return err
	}
	time.Sleep(time.Duration(300+k.rng.Intn(3700)) * time.Millisecond)
	if _, err := k.press(c, "Escape", "Esc mid-answer"); err != nil {
		return err
	}
	return k.settle(c, sent, true, soakTimeout)
}

// soakWaitScript is the command the soak interrupts: it marks that it
// started (soak-wait-<n>.started), then sleeps. Claude refuses a bare long
// sleep (2.1.330), and asks once before it runs a script: the soak answers
// "don't ask again".
const soakWaitScript = "soak-wait.sh"

// escMidTool interrupts a running command some time after it started.
func (k *soaker) escMidTool() error {
	c := k.target()
	dir := k.r.dir("proj")
	script := "#!/bin/sh\n: > \"soak-wait-$1.started\"\nexec sleep 40\n"
	if err := os.WriteFile(filepath.Join(dir, soakWaitScript), []byte(script), 0o755); err != nil {
		return err
	}
	n := k.next()
	sent, err := k.send(c, fmt.Sprintf("TOOL:./%s %d", soakWaitScript, n))
	if err != nil {
		return err
	}
	started := filepath.Join(dir, fmt.Sprintf("soak-wait-%d.started", n))
	answered := false
	for deadline := time.Now().Add(soakTimeout); ; time.Sleep(25 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: the command never started within %v; screen:\n%s", c.name, soakTimeout, lastLines(c.pane.capture(), 15))
		}
		if !answered && dialog("Do you want to proceed?")(c.pane.capture()) {
			shown := time.Now()
			time.Sleep(readingTime)
			at, err := k.press(c, "2", "don't ask again for the script (2)")
			if err != nil {
				return err
			}
			k.noteWait(c, fmt.Sprintf("./%s %d", soakWaitScript, n), shown, at, "2")
			answered = true
		}
	}
	time.Sleep(time.Duration(300+k.rng.Intn(2700)) * time.Millisecond)
	if _, err := k.press(c, "Escape", "Esc mid-tool"); err != nil {
		return err
	}
	return k.settle(c, sent, true, soakTimeout)
}

// permission asks to touch a new file and answers the dialog with key.
func (k *soaker) permission(key, what string) error {
	return k.askPermission(k.target(), fmt.Sprintf("TOOL:touch soak-%d.txt", k.next()), key, what)
}

// dontAskAgain runs a script of its own, so that the rule Claude saves
// ("don't ask again for ./soak-N.sh") covers no later step.
func (k *soaker) dontAskAgain() error {
	c := k.target()
	name := fmt.Sprintf("soak-%d.sh", k.next())
	if err := os.WriteFile(filepath.Join(k.r.dir("proj"), name), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		return err
	}
	return k.askPermission(c, "TOOL:./"+name, "2", "don't ask again (2)")
}

func (k *soaker) askPermission(c *claudeProc, prompt, key, what string) error {
	sent, err := k.send(c, prompt)
	if err != nil {
		return err
	}
	shown, err := k.waitFor(c, "permission dialog", soakTimeout, dialog("Do you want to proceed?"))
	if err != nil {
		return err
	}
	time.Sleep(time.Until(shown.Add(readingTime)))
	at, err := k.press(c, key, what)
	if err != nil {
		return err
	}
	k.noteWait(c, strings.TrimPrefix(prompt, "TOOL:"), shown, at, key)
	return k.settle(c, sent, true, soakTimeout)
}

// question has Claude ask (AskUserQuestion) and answers with key.
func (k *soaker) question(key, what string) error {
	c := k.target()
	question := fmt.Sprintf("Which colour for the soak? (%d)", k.next())
	sent, err := k.send(c, "ASK:"+question)
	if err != nil {
		return err
	}
	// "Leave it" is the stand-in's second option.
	shown, err := k.waitFor(c, "question", soakTimeout, dialog("Leave it"))
	if err != nil {
		return err
	}
	time.Sleep(time.Until(shown.Add(readingTime)))
	at, err := k.press(c, key, what)
	if err != nil {
		return err
	}
	k.noteWait(c, question, shown, at, key)
	return k.settle(c, sent, true, soakTimeout)
}
