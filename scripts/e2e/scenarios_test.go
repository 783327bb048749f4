package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPromptAndPermission: start → ready; a prompt → working; a Bash call
// that needs permission → waiting, naming the command; approve → working;
// the turn's end → ready.
func TestPromptAndPermission(t *testing.T) {
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))

	at := c.submit("SLOW:3")
	r.expect("prompt → working", at, "Enter", stepLimit, workingOn(id, "SLOW:3"))
	end := c.turnEnd(at, 15*time.Second)
	r.expect("turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))

	// The command takes 2 s and so does the answer after it: long enough to
	// see "working" after the approval.
	command := "sleep 2 && touch approved.txt"
	c.submit("SLOW:2 TOOL:" + command)
	shown := c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	r.expect("Bash needs permission → waiting", shown, "dialog on screen", stepLimit, waitingOn(id, command))

	at = c.answer(shown, "Enter") // "1. Yes" is selected
	c.waitScreen("the dialog closing", 5*time.Second, dialogGone)
	r.expect("approve (Enter on Yes) → working", at, "Enter", stepLimit, showing(id, "working"))
	end = c.turnEnd(at, 20*time.Second)
	r.expect("turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
	if _, err := os.Stat(filepath.Join(r.dir("proj"), "approved.txt")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
}

// TestEscape: a permission denied with Esc, and a slow answer interrupted
// with Esc. Claude Code fires no hook for either; the HUD must not be left
// showing waiting or working.
func TestEscape(t *testing.T) {
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))

	c.submit("TOOL:touch denied.txt")
	shown := c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	r.expect("Bash needs permission → waiting", shown, "dialog on screen", stepLimit, waitingOn(id, "touch denied.txt"))
	at := c.answer(shown, "Escape")
	c.waitScreen("the denial", 5*time.Second, contains("Interrupted"))
	r.expect("deny with Esc → ready", c.idleAgain(at, 10*time.Second), turnDone, stepLimit, showing(id, "ready"))
	if _, err := os.Stat(filepath.Join(r.dir("proj"), "denied.txt")); err == nil {
		t.Errorf("the denied command ran")
	}

	at = c.submit("SLOW:60")
	r.expect("prompt → working", at, "Enter", stepLimit, showing(id, "working"))
	c.waitScreen("the answer streaming", 10*time.Second, contains("esc to interrupt"))
	at = c.press("Escape")
	// Interrupted before any text, the CLI puts the prompt back in the input
	// box; either way its footer stops offering the interrupt.
	c.waitScreen("the interruption", 5*time.Second, func(s string) bool { return !strings.Contains(s, "esc to interrupt") })
	r.expect("interrupt slow answer with Esc → ready", c.idleAgain(at, 10*time.Second), turnDone, stepLimit, showing(id, "ready"))
}

// TestCompactAndClear: a /compact the CLI refuses (2.1.197) or does
// (2.1.330) → ready again;
// /compact → compacting → ready; /clear → exactly one session, the new id.
func TestCompactAndClear(t *testing.T) {
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))

	at := c.submit("hello")
	end := c.turnEnd(at, 10*time.Second)
	r.expect("turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))

	// One exchange is too little to compact for 2.1.197: it fires
	// PreCompact, then refuses, and fires nothing more. 2.1.330 compacts
	// it.
	at = c.submit("/compact")
	const refusal = "Not enough messages to compact"
	done := c.waitScreen("the refusal or the compaction", 10*time.Second, func(s string) bool {
		return strings.Contains(s, refusal) || strings.Contains(s, "Compacted")
	})
	if strings.Contains(c.pane.capture(), refusal) {
		r.expect("refused /compact → ready", c.idleAgain(at, 10*time.Second), turnDone, stepLimit, showing(id, "ready"))
	} else {
		r.expect("/compact of one exchange → ready", done, "“Compacted” on screen", stepLimit, showing(id, "ready"))
	}

	// A tool call makes the conversation long enough.
	c.submit("TOOL:touch compact.txt")
	shown := c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	at = c.answer(shown, "Enter")
	end = c.turnEnd(at, 10*time.Second)
	r.expect("turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))

	at = c.submit("/compact")
	r.expect("/compact → compacting", at, "Enter", stepLimit, showing(id, "compacting"))
	// The first compaction's "Compacted" may still be on screen (2.1.330):
	// the end is when Claude says it is idle again.
	done = c.turnEnd(at, 20*time.Second)
	r.expect("compaction done → ready", done, turnDone, stepLimit, showing(id, "ready"))

	at = c.submit("/clear")
	newID := c.awaitNewSession(id, 5*time.Second)
	r.expect("/clear → one session, the new id", at, "Enter", stepLimit, onlySession(newID, "ready"))
}

// TestExitContinueKill: /exit → gone; `claude -p … --continue` resumes the
// session (shown while it runs, gone when it ends); kill -9 → gone; the
// terminal closed under a working session → gone.
func TestExitContinueKill(t *testing.T) {
	r := newRig(t, "proj")
	dir := r.dir("proj")
	c, id := r.startReady("claude", dir)
	at := c.submit("hello")
	c.turnEnd(at, 10*time.Second)

	at = c.submit("/exit")
	r.expect("/exit → gone", at, "Enter", stepLimit, gone(id))
	exited := c.waitExit(10 * time.Second)
	r.expectLockReleased("/exit → lock released", c.pane.pid, exited, "process exit", stepLimit)

	// Print mode's own session file first names a fresh id, then the
	// resumed one (fixtures 28-29); the step starts when it names the
	// session /exit ended.
	p := r.launch("claude -p --continue", dir, "-p", "SLOW:3", "--continue")
	resumedAt := p.awaitSessionNamed(id, 20*time.Second)
	r.expect("print mode --continue → resumed, working", resumedAt, "Claude's file names it", stepLimit, showing(id, "working"))
	exited = p.waitExit(30 * time.Second)
	r.expect("print mode ends → gone", exited, "process exit", stepLimit, gone(id))
	r.expectLockReleased("print mode ends → lock released", p.pane.pid, exited, "process exit", stepLimit)

	k, kid := r.startReady("claude (to kill)", dir)
	if err := syscall.Kill(k.pane.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	r.expect("kill -9 → gone", killed, "kill -9", killLimit, gone(kid))
	r.expectLockReleased("kill -9 → lock released", k.pane.pid, killed, "kill -9", stepLimit)

	// Closing the terminal hangs Claude up mid-answer.
	w, wid := r.startReady("claude (terminal closed)", dir)
	at = w.submit("SLOW:60")
	r.expect("prompt → working", at, "Enter", stepLimit, showing(wid, "working"))
	closed := time.Now()
	w.pane.close()
	r.expect("terminal closed → gone", closed, "tmux kill-pane", killLimit, gone(wid))
	r.expectLockReleased("terminal closed → lock released", w.pane.pid, closed, "tmux kill-pane", stepLimit)
}

// TestTwoSessionsAndSubdirectory: two sessions in one project and one in a
// subdirectory, each in its own state, and `--project` resolving by the
// rules: a lock at the exact path first, the neediest state among
// equals; a session in a subdirectory is a child match.
func TestTwoSessionsAndSubdirectory(t *testing.T) {
	r := newRig(t, "proj", "proj/sub", "elsewhere")
	proj, sub := r.dir("proj"), r.dir("proj/sub")
	a := r.launch("a", proj)
	b := r.launch("b", proj)
	c := r.launch("c (subdir)", sub)
	var ids []string
	for _, x := range []*claudeProc{a, b, c} {
		ids = append(ids, x.awaitPrompt())
	}
	ida, idb, idc := ids[0], ids[1], ids[2]

	at := a.submit("SLOW:60")
	r.expect("a: prompt → working", at, "Enter", stepLimit, showing(ida, "working"))
	c.submit("TOOL:touch sub.txt")
	shown := c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	r.expect("c: Bash needs permission → waiting", shown, "dialog on screen", stepLimit, waitingOn(idc, "touch sub.txt"))

	// Claude hands its hooks CLAUDE_PROJECT_DIR, the directory it started
	// in, and the hook prefers it to the .git above.
	r.expect("c's project_dir is where it started", time.Now(), alreadySet, stepLimit, inProject(idc, sub))
	r.expect("all three listed, each its own state", time.Now(), alreadySet, stepLimit, all(
		"a working, b ready, c waiting; aggregate waiting",
		showing(ida, "working"), showing(idb, "ready"), showing(idc, "waiting"),
		want{ok: func(st hudStatus) bool { return st.State == "waiting" && len(st.Sessions) == 3 }},
	))
	r.expect("--project proj (a, b there; c below)", time.Now(), alreadySet, stepLimit, resolves(proj, "a", ida, "working", "exact"))
	r.expect("--project proj/sub", time.Now(), alreadySet, stepLimit, resolves(sub, "c", idc, "waiting", "exact"))
	r.expect("--project elsewhere (no session)", time.Now(), alreadySet, stepLimit, resolves(r.dir("elsewhere"), "", "", "", ""))

	// Left alone past the CLI's permission_prompt Notification (about 6 s)
	// and the second opinion's 5 s: a long answer fires no hook at all, the
	// dialog one Notification; neither may fade to ready.
	time.Sleep(time.Until(shown.Add(8 * time.Second)))
	r.expect("8 s untouched → still as they were", time.Now(), alreadySet, stepLimit, all(
		"a working, b ready, c waiting",
		showing(ida, "working"), showing(idb, "ready"), waitingOn(idc, "touch sub.txt")))

	// With a and b gone, proj resolves to the session in its subdirectory.
	for _, x := range []*claudeProc{a, b} {
		if err := syscall.Kill(x.pane.pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	killed := time.Now()
	r.expect("kill -9 a and b → gone", killed, "kill -9", killLimit, all("a, b gone; c waiting", gone(ida), gone(idb), showing(idc, "waiting")))
	r.expect("--project proj, only c left", killed, "kill -9", killLimit, resolves(proj, "c", idc, "waiting", "child"))
}

// TestAPIErrorAndMove: a turn that ends on an API error (StopFailure) →
// ready; a Bash `cd` into a subdirectory (CwdChanged) → the session's cwd
// follows, and `--project` finds it from the project and from the
// subdirectory.
func TestAPIErrorAndMove(t *testing.T) {
	r := newRig(t, "proj", "proj/sub")
	proj, sub := r.dir("proj"), r.dir("proj/sub")
	c, id := r.startReady("claude", proj)

	at := c.submit("ERROR:400")
	c.waitScreen("the API error", 10*time.Second, contains("API Error: 400"))
	r.expect("API error (StopFailure) → ready", at, "Enter", stepLimit, all("ready, changed after the prompt",
		showing(id, "ready"), changedSince(id, at)))

	at = c.submit("TOOL:cd sub")
	end := c.turnEnd(at, 10*time.Second)
	r.expect("cd sub (CwdChanged) → cwd follows", end, turnDone, stepLimit, all("ready, cwd = proj/sub",
		showing(id, "ready"), inDir(id, sub)))
	// The path table: a record whose cwd moved below the project is
	// a child match for the project (found through the lock taken at proj),
	// and an exact match for the subdirectory.
	r.expect("--project proj", time.Now(), alreadySet, stepLimit, resolves(proj, "it", id, "ready", "child"))
	r.expect("--project proj/sub", time.Now(), alreadySet, stepLimit, resolves(sub, "it", id, "ready", "exact"))
}

// TestSubagent: a prompt that runs a subagent (the Agent tool) stays working
// while the subagent runs and after it stops (SubagentStart and
// SubagentStop are not the end of the turn), then → ready.
func TestSubagent(t *testing.T) {
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))

	// The subagent's own answer takes 2 s, and so does the main answer
	// after it (the prompt's SLOW applies to the turn).
	at := c.submit("AGENT:SLOW:2")
	r.expect("prompt → working", at, "Enter", stepLimit, showing(id, "working"))
	// The main turn resumes (its request carries the Agent tool's result)
	// once SubagentStop and PostToolUse have fired.
	var resumed time.Time
	mainResumed := func() bool {
		var ok bool
		resumed, ok = r.askedSince(at, "tool_result")
		return ok
	}
	r.expectThroughout("while the subagent runs", "Enter", 20*time.Second, mainResumed, showing(id, "working"))
	mainAnswered := func() bool { return r.s.api.LastAnswerEnd().After(resumed) }
	r.expectThroughout("after it stops, main answer streams", "main turn resumed", 20*time.Second, mainAnswered, showing(id, "working"))
	end := c.turnEnd(at, 20*time.Second)
	r.expect("turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
}

// TestContinueWhileOpen: `claude -p … --continue` resumes the session of a
// claude still open in another terminal; when the print-mode process ends
// (and fires SessionEnd for the shared id) the open one is still listed,
// ready, with its own pid.
func TestContinueWhileOpen(t *testing.T) {
	r := newRig(t, "proj")
	dir := r.dir("proj")
	c, id := r.startReady("claude", dir)
	at := c.submit("hello")
	end := c.turnEnd(at, 10*time.Second)
	r.expect("turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))

	p := r.launch("claude -p --continue", dir, "-p", "SLOW:2", "--continue")
	resumedAt := p.awaitSessionNamed(id, 20*time.Second)
	r.expect("print mode --continue → working", resumedAt, "Claude's file names it", stepLimit, showing(id, "working"))
	exited := p.waitExit(30 * time.Second)
	r.expect("print mode ends → the open one stays", exited, "process exit", stepLimit, all("listed, ready, the open claude's pid",
		showing(id, "ready"), want{ok: func(st hudStatus) bool {
			s, ok := st.session(id)
			return ok && s.PID == c.pane.pid
		}}))
}
