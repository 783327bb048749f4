package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/resolver"
	"github.com/capacitor-hud/hud/scripts/e2e/standin"
)

// agentsRunning: the session works and `hud status --json` counts n
// agents running.
func agentsRunning(sessionID string, n int) want {
	return want{
		id:   sessionID,
		desc: "working, " + resolver.SubagentsText(n),
		ok: func(st hudStatus) bool {
			var doc struct {
				Sessions []struct {
					SessionID string `json:"session_id"`
					State     string `json:"state"`
					Agents    int    `json:"agents"`
				} `json:"sessions"`
			}
			if json.Unmarshal(st.raw, &doc) != nil {
				return false
			}
			for _, s := range doc.Sessions {
				if s.SessionID == sessionID {
					return s.State == "working" && s.Agents == n
				}
			}
			return false
		},
	}
}

// promptKept: the session's working_on is still the person's prompt,
// whatever its state.
func promptKept(sessionID, text string) want {
	return want{
		id:   sessionID,
		desc: fmt.Sprintf("working_on %q", text),
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			return ok && s.WorkingOn == text
		},
	}
}

// TestBackgroundAgent: a subagent run in the background. The main turn's
// Stop fires at once while Claude waits for the agent ("Waiting for 1
// background agent to finish"); the session works, counting the agent,
// until Claude has continued by itself with the agent's result and that
// turn ends. The person's prompt stays what the session works on.
func TestBackgroundAgent(t *testing.T) {
	needClient(t, "2.1.198", "subagents in the background")
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))

	const prompt = "BGAGENT:6"
	at := c.submit(prompt)
	r.expect("prompt → working", at, "Enter", stepLimit, showing(id, "working"))
	// The main turn goes on at once with the Agent call's result (the
	// agent was launched) and answers; its Stop lists the agent running.
	var resumed time.Time
	for deadline := time.Now().Add(20 * time.Second); resumed.IsZero(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the main turn never went on after the Agent call; stand-in log:\n%s", r.s.apiLog.tail(8))
		}
		resumed, _ = r.askedSince(at, "tool_result")
	}
	mainEnd := r.answerEnd(resumed, 20*time.Second)
	r.expect("main turn stops, the agent runs → working, 1 agent running", mainEnd, "main answer ended", stepLimit, agentsRunning(id, 1))
	var back time.Time
	agentBack := func() bool {
		var ok bool
		back, ok = r.askedSince(at, standin.InjectedTurnAnswer)
		return ok
	}
	r.expectThroughout("while the agent runs and returns", "main answer ended", 30*time.Second, agentBack, showing(id, "working"))
	end := c.turnEnd(back, 20*time.Second)
	r.expect("the injected turn ends → ready", end, turnDone, stepLimit, all("ready, the person's prompt kept",
		showing(id, "ready"), promptKept(id, prompt)))
}

// TestQuestion: Claude asks the person with AskUserQuestion. The session
// waits, and what it waits for is the question, header and text; the
// answer sends it on, and the turn ends ready.
func TestQuestion(t *testing.T) {
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))

	const question = "Which database should we use?"
	c.submit("ASK:" + question)
	// The question's text is on screen from the prompt already; its
	// options ("Leave it" is the stand-in's) show only with the dialog.
	shown := c.waitScreen("the question", 20*time.Second, func(s string) bool {
		return strings.Contains(s, question) && strings.Contains(s, "Leave it")
	})
	r.expect("question on screen → waiting for it", shown, "question on screen", stepLimit, waitingOn(id, "Choice: "+question))
	// Past Claude's 6 s notification, whose generic text must not replace
	// the question.
	openLong := func() bool { return time.Since(shown) > 8*time.Second }
	r.expectThroughout("left open 8 s → still the question", "question on screen", 10*time.Second, openLong, waitingOn(id, "Choice: "+question))
	answered := c.press("Enter")
	end := c.turnEnd(answered, 20*time.Second)
	r.expect("answered, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
}

// TestPlanApproval: in plan mode Claude presents its plan with
// ExitPlanMode; the session waits for "plan approval" until the person
// approves it.
func TestPlanApproval(t *testing.T) {
	r := newRig(t, "proj")
	c := r.launch("claude", r.dir("proj"), "--permission-mode", "plan")
	id := c.awaitPrompt()

	c.submit("PLAN:Rename the config loader and add tests")
	shown := c.waitScreen("the plan dialog", 20*time.Second, contains("Exit plan mode?"))
	r.expect("plan on screen → waiting for approval", shown, "dialog on screen", stepLimit, waitingOn(id, "plan approval"))
	// A key sent while the dialog still draws its choices is lost.
	c.waitScreen("the plan dialog's choices", 5*time.Second, contains("2. No"))
	time.Sleep(300 * time.Millisecond)
	approved := c.press("Enter")
	end := c.turnEnd(approved, 20*time.Second)
	r.expect("approved, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
}
