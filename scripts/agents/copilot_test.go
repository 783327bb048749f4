package agents

import (
	"encoding/json"
	"fmt"
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
	config, _ := json.Marshal(map[string]any{"trustedFolders": []string{r.project}})
	r.installFor("Copilot CLI", map[string]string{".copilot/config.json": string(config)})
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
// takes. A denial, Esc Esc and a model error fire no hook that ends the
// turn: the session turns ready from Copilot's own events.jsonl.
func TestCopilot(t *testing.T) {
	r, copilot := copilotRig(t)
	r.walk(r.startCopilot(copilot, "copilot"), walk{
		atPrompt:   true,
		dialog:     "Do you want to run this command",
		denied:     "Operation cancelled by user",
		waitingFor: func(command string) string { return "Run command: " + command },
		question:   "Which colour",
		asked:      "Copilot needs information",
		// The stand-in's question asks for nothing but an accept (an
		// empty schema): Enter answers it.
		answer: func(r *rig, p *tmux.Pane) { r.keys(p, "Enter") },
		// One Esc only arms Copilot's "esc esc interrupt"; two in the
		// same instant read as one (seen), so the second comes a moment
		// later.
		interrupt: func(r *rig, p *tmux.Pane) {
			r.keys(p, "Escape")
			time.Sleep(300 * time.Millisecond)
			r.keys(p, "Escape")
		},
		failed: "the stand-in answers 400",
		quit:   "/exit",
	})
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
