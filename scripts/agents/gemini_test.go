package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/internal/tmux"
	"github.com/capacitor-hud/hud/lockholder"
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
	a := r.startGemini(gemini, "gemini-a")
	b := r.startGemini(gemini, "gemini-b")
	r.expect("both started → two sessions ready, one in each terminal", func(ss []session) bool {
		return len(ss) == 2 && ss[0].State == "ready" && ss[1].State == "ready" &&
			(inPane(ss[0], a) && inPane(ss[1], b) || inPane(ss[0], b) && inPane(ss[1], a))
	})
	r.say(a, "TOOL:touch a.txt")
	r.expect("a asks → a waiting, b ready", aWaits(a, b))
	r.waitScreen(a, "Allow once")
	r.keys(a, "Enter")
	r.say(b, "/quit")
	r.expect("b quits → a alone, ready", one("ready", func(s session) bool { return inPane(s, a) }))
	r.say(a, "/quit")
	r.expect("a quits → none", none)
}

// inPane reports whether the session's process runs in the terminal p:
// the agent's node launcher is the pane's process, and the process that
// runs the hooks (Gemini's relaunched node, Copilot's native binary) one
// of its children.
func inPane(s session, p *tmux.Pane) bool {
	if s.PID == nil {
		return false
	}
	pid := *s.PID
	for range 3 {
		if pid == p.PID {
			return true
		}
		proc, err := lockholder.Inspect(pid)
		if err != nil {
			return false
		}
		pid = proc.PPID
	}
	return false
}

// aWaits accepts two sessions: the one in terminal a waiting, the one in
// b ready.
func aWaits(a, b *tmux.Pane) func([]session) bool {
	return func(ss []session) bool {
		if len(ss) != 2 {
			return false
		}
		for _, s := range ss {
			switch {
			case s.State == "waiting" && inPane(s, a):
			case s.State == "ready" && inPane(s, b):
			default:
				return false
			}
		}
		return true
	}
}
