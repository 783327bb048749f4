package e2e

import (
	"fmt"
	"slices"
	"time"

	"github.com/capacitor-hud/hud/scripts/e2e/standin"
)

// The soak's steps that start work Claude does on its own (subagents), end
// or begin sessions, or leave the person away.

// backgroundAgent runs a subagent in the background: the main turn ends
// at once, and Claude takes up the agent's result by itself a few seconds
// later, in a turn it starts. It runs in the main session: the second has
// background tasks off.
func (k *soaker) backgroundAgent() error {
	c := k.main
	secs := 2 + k.rng.Intn(7)
	at, err := k.send(c, fmt.Sprintf("BGAGENT:%d", secs))
	if err != nil {
		return err
	}
	limit := soakTimeout + time.Duration(secs)*time.Second
	var back time.Time
	for deadline := time.Now().Add(limit); back.IsZero(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: the background agent's result never came back within %v; stand-in log:\n%s", c.name, limit, k.r.s.apiLog.tail(6))
		}
		back, _ = k.r.askedSince(at, standin.InjectedTurnAnswer)
	}
	k.steps = append(k.steps, soakStep{at: back, proc: c.name, name: c.name + ": the background agent's result taken up"})
	return k.settle(c, back, true, soakTimeout)
}

// foregroundAgent runs a subagent the main turn waits for. Releases that
// run every subagent in the background in a terminal (2.1.332) run it in
// the foreground with background tasks off, as the second session has
// them; so it runs there.
func (k *soaker) foregroundAgent() error {
	if k.second == nil {
		if err := k.openSecond(); err != nil {
			return err
		}
	}
	c := k.second
	secs := 2 + k.rng.Intn(4)
	at, err := k.send(c, fmt.Sprintf("AGENT:SLOW:%d", secs))
	if err != nil {
		return err
	}
	return k.settle(c, at, true, soakTimeout+2*time.Duration(secs)*time.Second)
}

// command sends a slash command. Claude may take it up a moment later
// (a /compact) or not change its status at all (a /clear).
func (k *soaker) command(name string) error {
	c := k.target()
	at, err := k.send(c, name)
	if err != nil {
		return err
	}
	return k.settle(c, at, false, soakTimeout)
}

// toggleSecond opens a second session in the same folder, in a second
// tmux window, and sends it a prompt; or, when one is open, ends it with
// /exit.
func (k *soaker) toggleSecond() error {
	if k.second == nil {
		if err := k.openSecond(); err != nil {
			return err
		}
		return k.shortPromptIn(k.second)
	}
	c := k.second
	if _, err := k.send(c, "/exit"); err != nil {
		return err
	}
	defer func() {
		k.sampler.untrack(c.name)
		k.second = nil
	}()
	for deadline := time.Now().Add(soakTimeout); processAlive(c.pane.pid); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s still runs %v after /exit", c.name, soakTimeout)
		}
	}
	return nil
}

// openSecond starts the second session with background tasks off, so that
// its subagents run in the foreground, and waits for its prompt. The
// sampler follows it from its start.
func (k *soaker) openSecond() error {
	k.opened++
	name := fmt.Sprintf("second-%d", k.opened)
	saved := k.r.env
	k.r.env = append(slices.Clone(saved), "CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1")
	c := k.r.launch(name, k.r.dir("proj"))
	k.r.env = saved
	k.mark(c, "started")
	k.sampler.track(name, c)
	k.second = c
	if _, err := c.atPrompt(promptLimit); err != nil {
		return err
	}
	return k.manualMode(c)
}

func (k *soaker) shortPromptIn(c *claudeProc) error {
	at, err := k.send(c, fmt.Sprintf("hello %d", k.next()))
	if err != nil {
		return err
	}
	return k.settle(c, at, true, soakTimeout)
}

// idleGap: the person reads, or looks away, for up to a few seconds.
func (k *soaker) idleGap() error {
	d := time.Duration(500+k.rng.Intn(5500)) * time.Millisecond
	k.mark(nil, fmt.Sprintf("idle %.1f s", d.Seconds()))
	time.Sleep(d)
	return nil
}

// soakLongIdle outlasts the 60 s after which Claude sends its idle
// notification, which must not change what hud shows.
const soakLongIdle = 65 * time.Second

// longIdle is a gap past Claude's idle notification, at most maxLongIdles
// times a run and only when the run has time left for it; otherwise a
// short gap.
func (k *soaker) longIdle() error {
	if k.longIdles >= k.maxLongIdles || time.Until(k.deadline) < soakLongIdle+5*time.Second {
		return k.idleGap()
	}
	k.longIdles++
	k.mark(nil, fmt.Sprintf("idle %.0f s (past the idle notification)", soakLongIdle.Seconds()))
	time.Sleep(soakLongIdle)
	return nil
}
