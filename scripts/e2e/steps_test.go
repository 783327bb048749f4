package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The deadlines. A step that fires a hook must show within a second, a
// process that dies without one (kill -9, a closed terminal) within two.
// Steps after which Claude Code fires nothing (an Esc that denies a
// permission or interrupts an answer, a /compact it refuses) rely on the
// HUD's second opinion, Claude's own ~/.claude/sessions/<pid>.json, whose
// idle it believes once it has lasted resolver.ClaudeIdleAfter: they are
// measured from the moment Claude itself says idle, like a turn's end, so
// that a CLI slowed down by a loaded machine is not counted against the
// HUD, and get a second too. TestEscapeMidAnswer holds Esc → ready from
// the key.
const (
	stepLimit = time.Second
	killLimit = 2 * time.Second
)

// The screens the CLI shows at each step: its side of the story, checked
// before the HUD's so a failure says whose it is.
func dialogShown(screen string) bool { return strings.Contains(screen, "Do you want to proceed?") }

func contains(text string) func(string) bool {
	return func(screen string) bool { return strings.Contains(screen, text) }
}

func dialogGone(screen string) bool { return !dialogShown(screen) }

// answerEnd waits for the stand-in to finish an answer begun after since,
// and returns when it did.
func (r *rig) answerEnd(since time.Time, timeout time.Duration) time.Time {
	r.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if end := r.s.api.LastAnswerEnd(); end.After(since) {
			return end
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the stand-in finished no answer within %v; stand-in log:\n%s", timeout, r.s.apiLog.tail(8))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// askedSince reports when the stand-in was first asked, after since, a
// request it answered as answer (a prefix of Exchange.Answer).
func (r *rig) askedSince(since time.Time, answer string) (time.Time, bool) {
	for _, x := range r.s.api.Exchanges() {
		if x.At.After(since) && strings.HasPrefix(x.Answer, answer) {
			return x.At, true
		}
	}
	return time.Time{}, false
}

// alreadySet marks a check of a state reached in an earlier step: its wait
// is the time one `hud status` takes.
const alreadySet = "(state already set)"

// turnDone names the moment a turn ended, as Claude itself says it.
const turnDone = "Claude idle again"

// turnEnd waits for the stand-in to finish an answer begun after since and
// then for Claude's own session file to say "idle" (idleAgain), and returns
// that moment: the HUD's "ready" is measured from the moment Claude itself
// is done, so a CLI slow to wrap up is not counted against the HUD.
func (c *claudeProc) turnEnd(since time.Time, timeout time.Duration) time.Time {
	c.r.t.Helper()
	c.r.answerEnd(since, timeout)
	return c.idleAgain(since, timeout)
}

// idleAgain waits for Claude's own session file to say "idle", a status
// set after since, and returns the moment it did.
func (c *claudeProc) idleAgain(since time.Time, timeout time.Duration) time.Time {
	c.r.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		cs, err := c.claudeState()
		if err == nil && cs.Status == "idle" && time.UnixMilli(cs.StatusUpdatedAt).After(since) {
			return time.Now()
		}
		if time.Now().After(deadline) {
			c.r.t.Fatalf("%s: Claude Code's session file does not say idle %v after %s (status %q, %v); screen:\n%s\nstand-in log:\n%s",
				c.name, timeout, since.Format("15:04:05.000"), cs.Status, err, lastLines(c.pane.capture(), 25), c.r.s.apiLog.tail(8))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startReady starts an interactive claude and waits for its prompt, where
// awaitPrompt checks the HUD shows its session ready, owned by the right
// process.
func (r *rig) startReady(name, dir string) (*claudeProc, string) {
	r.t.Helper()
	c := r.launch(name, dir)
	return c, c.awaitPrompt()
}

// expectStarted checks that a session whose prompt just showed is listed,
// ready, under its Claude process's pid.
func (r *rig) expectStarted(c *claudeProc, id string) {
	r.t.Helper()
	prefix := c.prefix()
	r.expect(prefix+"start → ready", c.ready, "prompt on screen", stepLimit, showing(id, "ready"))
	r.expect(prefix+"… its pid is Claude's", c.ready, "prompt on screen", stepLimit, want{
		id:   id,
		desc: "pid = Claude's pid",
		ok: func(st hudStatus) bool {
			s, ok := st.session(id)
			return ok && s.PID == c.pane.pid
		},
	})
}

// awaitSessionNamed waits for Claude's own session file to name id and
// returns when it did.
func (c *claudeProc) awaitSessionNamed(id string, timeout time.Duration) time.Time {
	c.r.t.Helper()
	deadline := time.Now().Add(timeout)
	for c.sessionID() != id {
		if time.Now().After(deadline) {
			c.r.t.Fatalf("%s: Claude Code's session file names %q, not the resumed %s, %v after start; screen:\n%s",
				c.name, c.sessionID(), id, timeout, lastLines(c.pane.capture(), 20))
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Now()
}

// awaitNewSession waits for Claude's own session file to name another id
// than old (as /clear does) and returns it.
func (c *claudeProc) awaitNewSession(old string, timeout time.Duration) string {
	c.r.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if id := c.sessionID(); id != "" && id != old {
			return id
		}
		if time.Now().After(deadline) {
			c.r.t.Fatalf("%s: Claude Code's session file still names %s %v after /clear", c.name, old, timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// expectLockReleased checks that the lock holder removes the lock of the
// Claude process pid (~/.claude/sessions/<hash>-<pid>.lock/) within limit
// of from: it must notice the exit of the real CLI, however it ended.
func (r *rig) expectLockReleased(step string, pid int, from time.Time, fromWhat string, limit time.Duration) {
	r.t.Helper()
	suffix := "-" + strconv.Itoa(pid) + ".lock"
	held := func() []string {
		entries, _ := os.ReadDir(filepath.Join(r.home, ".claude", "sessions"))
		var locks []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), suffix) {
				locks = append(locks, e.Name())
			}
		}
		return locks
	}
	for {
		locks := held()
		wait := time.Since(from)
		if len(locks) == 0 && wait <= limit {
			r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: "lock removed", from: fromWhat, wait: wait, limit: limit, ok: true})
			r.t.Logf("%-40s %-45s %6.0f ms", step, "lock removed", float64(wait)/float64(time.Millisecond))
			return
		}
		if wait > limit {
			r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: "lock removed", from: fromWhat, wait: wait, limit: limit, ok: false})
			r.t.Errorf("\n=== FAILED STEP: %s\nexpected (within %v of %s): the lock of pid %d removed\nseen: %s still there; locks:\n%s\n--- hook debug log:\n%s",
				step, limit, fromWhat, pid, strings.Join(locks, ", "), r.listLocks(), r.hookLogTail(20))
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
