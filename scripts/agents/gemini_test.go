package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	dir := filepath.Join(r.home, ".gemini")
	settings := `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "ui": {"hideTips": true}}`
	trusted, _ := json.Marshal(map[string]string{r.project: "TRUST_FOLDER"})
	for name, body := range map[string]string{"settings.json": settings, "trustedFolders.json": string(trusted)} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := r.hud("install", "gemini", "--hook", r.hook); err != nil {
		t.Fatalf("hud install gemini: %v\n%s", err, out)
	}
	if out, _ := r.hud("doctor"); !strings.Contains(out, "Gemini CLI: installed") {
		t.Errorf("after hud install gemini, hud doctor does not say it is installed:\n%s", out)
	}
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
// takes, checking `hud status` after each. The denial fires no hook: the
// session turns ready from Gemini's own chat file.
func TestGemini(t *testing.T) {
	r, gemini := geminiRig(t)
	p := r.startGemini(gemini, "gemini")
	r.expect("started → ready", one("ready", func(s session) bool {
		return s.Source == "lock" && inPane(s, p)
	}))

	r.say(p, "hello")
	r.waitScreen(p, "Hello from the stand-in")
	r.expect("prompt answered → ready", one("ready", func(s session) bool { return s.WorkingOn == "hello" }))

	r.say(p, "TOOL:touch approved.txt")
	r.expect("permission dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Shell: touch approved.txt" }))
	r.waitScreen(p, "Allow once")
	r.keys(p, "Enter")
	r.expect("approved → ready", one("ready", nil))
	if _, err := os.Stat(filepath.Join(r.project, "approved.txt")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}

	r.say(p, "TOOL:touch denied.txt")
	r.expect("second dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Shell: touch denied.txt" }))
	r.waitScreen(p, "Allow once")
	r.keys(p, "Escape")
	r.expect("denied (no hook fires) → ready", one("ready", nil))
	r.waitScreen(p, "Request cancelled")

	r.say(p, "ASK:Which colour")
	r.expect("a question → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Question: Which colour" }))
	r.waitScreen(p, "Enter your response")
	r.say(p, "blue")
	r.expect("answered → ready", one("ready", nil))

	r.say(p, "SLOW:30 tell a story")
	r.expect("slow turn → working", one("working", func(s session) bool { return s.WorkingOn == "SLOW:30 tell a story" }))
	r.keys(p, "Escape")
	r.expect("Esc while working → ready", one("ready", nil))

	r.say(p, "ERROR:400 please")
	r.waitScreen(p, "API Error")
	r.expect("API error → ready", one("ready", func(s session) bool { return s.WorkingOn == "ERROR:400 please" }))

	r.say(p, "/quit")
	r.expect("/quit (SessionEnd three times) → gone", none)
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
