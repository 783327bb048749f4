package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/tmux"
)

// copilotRig is a rig whose HOME has Copilot CLI trusting the project,
// with hud installed for it by `hud install copilot`.
func copilotRig(t *testing.T) (*rig, string) {
	s := needSuite(t)
	copilot, version := s.executable(t, "copilot", "node_modules/.bin/copilot")
	r := newRig(t, s, "copilot", version)
	dir := filepath.Join(r.home, ".copilot")
	config, _ := json.Marshal(map[string]any{"trustedFolders": []string{r.project}})
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), config, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := r.hud("install", "copilot", "--hook", r.hook); err != nil {
		t.Fatalf("hud install copilot: %v\n%s", err, out)
	}
	if out, _ := r.hud("doctor"); !strings.Contains(out, "Copilot CLI: installed") {
		t.Errorf("after hud install copilot, hud doctor does not say it is installed:\n%s", out)
	}
	return r, copilot
}

// startCopilot starts Copilot CLI in a new terminal, offline against the
// stand-in's Chat Completions API, and waits for its prompt.
func (r *rig) startCopilot(copilot, name string) *tmux.Pane {
	r.t.Helper()
	p := r.start(name, fmt.Sprintf("env -u COPILOT_HOME HOME=%s COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false "+
		"COPILOT_PROVIDER_BASE_URL=%s/v1 COPILOT_PROVIDER_API_KEY=%s COPILOT_MODEL=standin-chat %s",
		r.home, r.s.chatURL, apiKey, copilot))
	r.waitScreenWithin(p, "/ commands", startLimit)
	return p
}

// TestCopilot walks one Copilot CLI session through every step a person
// takes, checking `hud status` after each. A denial, Esc and a model
// error fire no hook that ends the turn: the session turns ready from
// Copilot's own events.jsonl.
func TestCopilot(t *testing.T) {
	r, copilot := copilotRig(t)
	p := r.startCopilot(copilot, "copilot")
	// Copilot starts its session at the first prompt: no hook fires before.
	r.expect("started: no session until the first prompt", none)

	r.say(p, "hello")
	r.waitScreen(p, "Hello from the stand-in")
	r.expect("prompt answered → ready", one("ready", func(s session) bool {
		return s.WorkingOn == "hello" && s.Source == "lock" && inPane(s, p)
	}))

	r.say(p, "TOOL:touch approved.txt")
	r.expect("permission dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Run command: touch approved.txt" }))
	r.waitScreen(p, "Do you want to run this command")
	r.keys(p, "Enter")
	r.expect("approved → ready", one("ready", nil))
	if _, err := os.Stat(filepath.Join(r.project, "approved.txt")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}

	r.say(p, "TOOL:touch denied.txt")
	r.expect("second dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Run command: touch denied.txt" }))
	r.waitScreen(p, "Do you want to run this command")
	r.keys(p, "Escape")
	r.expect("denied (no hook fires) → ready", one("ready", nil))
	r.waitScreen(p, "Operation cancelled by user")

	r.say(p, "ASK:Which colour")
	r.expect("a question → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Which colour" }))
	r.waitScreen(p, "Copilot needs information")
	// The stand-in's question asks for nothing but an accept (an empty
	// schema): Enter answers it.
	r.keys(p, "Enter")
	r.expect("answered → ready", one("ready", nil))

	r.say(p, "SLOW:30 tell a story")
	r.expect("slow turn → working", one("working", func(s session) bool { return s.WorkingOn == "SLOW:30 tell a story" }))
	// One Esc only arms Copilot's "esc esc interrupt"; two in the same
	// instant read as one (seen), so the second comes a moment later.
	r.keys(p, "Escape")
	time.Sleep(300 * time.Millisecond)
	r.keys(p, "Escape")
	r.expect("Esc Esc while working (no hook fires) → ready", one("ready", nil))

	r.say(p, "ERROR:400 please")
	r.waitScreen(p, "the stand-in answers 400")
	r.expect("model error (no agentStop) → ready", one("ready", func(s session) bool { return s.WorkingOn == "ERROR:400 please" }))

	r.say(p, "/exit")
	r.expect("/exit → gone", none)
}

// TestCopilotTwoTerminals: two Copilot sessions side by side, each its own
// process and state.
func TestCopilotTwoTerminals(t *testing.T) {
	r, copilot := copilotRig(t)
	r.sideBySide(sideBySide{
		start:  func(name string) *tmux.Pane { return r.startCopilot(copilot, name) },
		greet:  true,
		dialog: "Do you want to run this command",
		quit:   "/exit",
	})
}
