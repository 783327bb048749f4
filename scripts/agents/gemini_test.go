package agents

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/capacitor-hud/hud/internal/tmux"
)

// geminiRig is a rig whose HOME has Gemini CLI signed in with an API key
// for the stand-in, the project trusted, and hud installed for it by
// `hud install gemini` beside those settings.
func geminiRig(t *testing.T) (*rig, string) {
	s := needSuite(t)
	gemini, version := s.executable(t, "gemini", "node_modules/.bin/gemini")
	r := newRig(t, s, "gemini", version)
	trusted, _ := json.Marshal(map[string]string{r.project: "TRUST_FOLDER"})
	r.installFor("Gemini CLI", map[string]string{
		".gemini/settings.json":       `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "ui": {"hideTips": true}}`,
		".gemini/trustedFolders.json": string(trusted),
	})
	return r, gemini
}

// startGemini starts Gemini CLI in a new terminal and waits for its prompt.
func (r *rig) startGemini(gemini, name string) *tmux.Pane {
	r.t.Helper()
	p := r.start(name, fmt.Sprintf("env -u GEMINI_CLI_HOME HOME=%s GEMINI_API_KEY=%s GOOGLE_GEMINI_BASE_URL=%s %s",
		r.home, apiKey, r.s.geminiURL, gemini))
	r.waitScreenWithin(p, "Type your message", startLimit)
	return p
}

// TestGemini walks one Gemini CLI session through every step a person
// takes. The denial fires no hook: the session turns ready from Gemini's
// own chat file. /quit fires SessionEnd three times.
func TestGemini(t *testing.T) {
	r, gemini := geminiRig(t)
	r.walk(r.startGemini(gemini, "gemini"), walk{
		dialog:     "Allow once",
		denied:     "Request cancelled",
		waitingFor: func(command string) string { return "Shell: " + command },
		question:   "Question: Which colour",
		asked:      "Enter your response",
		answer:     func(r *rig, p *tmux.Pane) { r.say(p, "blue") },
		interrupt:  func(r *rig, p *tmux.Pane) { r.keys(p, "Escape") },
		failed:     "API Error",
		quit:       "/quit",
	})
}

// TestGeminiTwoTerminals: two Gemini sessions side by side, each its own
// process and state.
func TestGeminiTwoTerminals(t *testing.T) {
	r, gemini := geminiRig(t)
	r.sideBySide(sideBySide{
		start:  func(name string) *tmux.Pane { return r.startGemini(gemini, name) },
		dialog: "Allow once",
		quit:   "/quit",
	})
}
