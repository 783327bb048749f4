package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/tmux"
	"github.com/capacitor-hud/hud/scripts/agents/standin/chat"
)

// opencodeStart bounds opencode's first start in a fresh HOME: it installs
// its plugin package into ~/.config/opencode (from npm) before it draws.
const opencodeStart = 90 * time.Second

// opencodeRig is a rig whose HOME has opencode talking to the Chat
// Completions stand-in, asking before it runs a command, with hud
// installed for it by `hud install opencode`.
func opencodeRig(t *testing.T) (*rig, string) {
	s := needSuite(t)
	opencode, version := s.executable(t, "opencode", "node_modules/opencode-*-*/bin/opencode")
	r := newRig(t, s, "opencode", version)
	config, _ := json.MarshalIndent(map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{"standin": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "stand-in",
			"options": map[string]any{"baseURL": s.chatURL + "/v1", "apiKey": apiKey},
			"models":  map[string]any{chat.Model: map[string]any{"name": "stand-in"}},
		}},
		"model":      "standin/" + chat.Model,
		"permission": map[string]string{"bash": "ask", "edit": "ask"},
		"autoupdate": false,
		"share":      "disabled",
	}, "", "  ")
	dir := filepath.Join(r.home, ".config", "opencode")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "opencode.json"), config, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := r.hud("install", "opencode", "--hook", r.hook); err != nil {
		t.Fatalf("hud install opencode: %v\n%s", err, out)
	}
	return r, opencode
}

// startOpencode starts opencode in a new terminal and waits for its prompt.
func (r *rig) startOpencode(opencode, name string) *tmux.Pane {
	r.t.Helper()
	p := r.start(name, "exec env HOME="+r.home+" XDG_CONFIG_HOME= OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 "+
		opencode+" 2>>"+filepath.Join(r.home, name+".stderr"))
	r.waitScreenWithin(p, "Ask anything", opencodeStart)
	return p
}

// TestOpencode walks one opencode session through every step a person
// takes, checking `hud status` after each. opencode fires nothing when it
// exits: its session ends with its process.
func TestOpencode(t *testing.T) {
	r, opencode := opencodeRig(t)
	p := r.startOpencode(opencode, "opencode")
	if out, _ := r.hud("doctor"); !strings.Contains(out, "opencode: installed") {
		t.Errorf("hud doctor does not say opencode is installed:\n%s", out)
	}
	r.expect("started: no session until the first prompt", none)

	r.say(p, "hello")
	r.expect("prompt answered → ready", one("ready", func(s session) bool {
		return s.WorkingOn == "hello" && s.PID != nil && s.Source == "lock"
	}))

	r.say(p, "TOOL:touch approved.txt")
	r.expect("permission dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Bash: touch approved.txt" }))
	r.waitScreen(p, "Allow once")
	r.answer(p, "Enter", "Allow once")
	r.expect("allowed once → ready", one("ready", nil))
	if _, err := os.Stat(filepath.Join(r.project, "approved.txt")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}

	r.say(p, "TOOL:touch denied.txt")
	r.expect("second dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Bash: touch denied.txt" }))
	r.waitScreen(p, "Allow once")
	r.answer(p, "Escape", "Allow once")
	r.expect("rejected (Esc) → ready", one("ready", nil))
	if _, err := os.Stat(filepath.Join(r.project, "denied.txt")); err == nil {
		t.Error("the rejected command ran")
	}

	r.say(p, "ASK:Which colour?")
	r.expect("a question → waiting", one("waiting", func(s session) bool { return strings.Contains(s.WaitingFor, "Which colour") }))
	r.waitScreen(p, "Green")
	r.answer(p, "Enter", "Green")
	r.expect("answered → ready", one("ready", nil))

	r.say(p, "SLOW:30")
	r.expect("slow turn → working", one("working", func(s session) bool { return s.WorkingOn == "SLOW:30" }))
	r.keys(p, "Escape")
	time.Sleep(300 * time.Millisecond)
	r.keys(p, "Escape")
	r.expect("Esc Esc while working → ready", one("ready", nil))

	r.say(p, "ERROR:400")
	r.expect("API error → ready", one("ready", func(s session) bool { return s.WorkingOn == "ERROR:400" }))

	r.say(p, "/exit")
	r.expect("/exit (nothing fires; the process ends) → gone", none)
	r.expectNoLocks("/exit → lock released")
}

// TestOpencodeTwoTerminals: two opencode processes side by side, each its
// own session, process and state; each ends with its process (nothing
// fires when opencode exits).
func TestOpencodeTwoTerminals(t *testing.T) {
	r, opencode := opencodeRig(t)
	r.sideBySide(sideBySide{
		start:  func(name string) *tmux.Pane { return r.startOpencode(opencode, name) },
		greet:  true, // opencode starts its session at the first prompt
		dialog: "Allow once",
		quit:   "/exit",
	})
}
