package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/tmux"
)

// codexRig is a rig whose HOME has Codex configured for the stand-in, with
// hud installed for it by `hud install codex`.
func codexRig(t *testing.T) (*rig, string) {
	s := needSuite(t)
	codex, version := s.executable(t, "codex", "node_modules/@openai/codex-*/vendor/*/bin/codex")
	r := newRig(t, s, "codex", version)
	// approval_policy on-request: a command the model asks to run outside
	// the sandbox needs the person's approval (the stand-in's "ask:").
	// The stand-in's errors are final: no retry.
	config := fmt.Sprintf(`model = "gpt-5-codex"
model_provider = "standin"
approval_policy = "on-request"

[model_providers.standin]
name = "stand-in"
base_url = "%s/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[projects.%q]
trust_level = "trusted"
`, s.apiURL, r.project)
	dir := filepath.Join(r.home, ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := r.hud("install", "codex", "--hook", r.hook); err != nil {
		t.Fatalf("hud install codex: %v\n%s", err, out)
	}
	if out, _ := r.hud("doctor"); !strings.Contains(out, "Codex has not trusted hud's hooks") {
		t.Errorf("before Codex trusts the hooks, hud doctor does not say so:\n%s", out)
	}
	return r, codex
}

// startCodex starts Codex in a new terminal and trusts hud's hooks at the
// review Codex asks for, as a person does after `hud install codex` (a
// second Codex finds them trusted).
func (r *rig) startCodex(codex, name string) *tmux.Pane {
	r.t.Helper()
	p := r.start(name, fmt.Sprintf("env -u CODEX_HOME HOME=%s OPENAI_API_KEY=%s %s", r.home, apiKey, codex))
	// Codex draws its prompt before the review over it, so whether the
	// review comes is taken from what hud doctor reads of Codex's trust.
	if out, _ := r.hud("doctor"); strings.Contains(out, "Codex: installed") {
		r.waitScreen(p, "Ask Codex to do anything") // trusted already, by an earlier Codex
		return p
	}
	r.waitScreen(p, "Trust all and continue")
	// The choice is made with the arrow keys and Enter; a key sent while
	// the dialog still draws is lost, so each is sent until the screen
	// shows it took.
	for i := 0; ; i++ {
		r.keys(p, "Down")
		if _, ok := p.WaitScreen(time.Second, func(s string) bool { return strings.Contains(s, "› 2. Trust all") }); ok {
			break
		}
		if i == 5 {
			r.t.Fatalf("the hooks review never selected 'Trust all'\n%s", r.diagnostics())
		}
	}
	r.keys(p, "Enter")
	r.waitScreen(p, "Ask Codex to do anything")
	return p
}

// TestCodex walks one Codex session through every step a person takes,
// checking `hud status` after each.
func TestCodex(t *testing.T) {
	r, codex := codexRig(t)
	p := r.startCodex(codex, "codex")
	if out, _ := r.hud("doctor"); !strings.Contains(out, "Codex: installed") {
		t.Errorf("once Codex trusts the hooks, hud doctor does not say all is well:\n%s", out)
	}
	// Codex starts its session at the first prompt: no hook fires before.
	r.expect("started: no session until the first prompt", none)

	r.say(p, "hello")
	r.waitScreen(p, "• ok")
	r.expect("prompt answered → ready", one("ready", func(s session) bool {
		return s.WorkingOn == "hello" && s.PID != nil && *s.PID == p.PID && s.Source == "lock"
	}))

	r.say(p, "ask: touch approved.txt")
	r.expect("permission dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Bash: touch approved.txt" }))
	r.waitScreen(p, "Yes, proceed")
	r.keys(p, "y")
	r.expect("approved → ready", one("ready", nil))
	if _, err := os.Stat(filepath.Join(r.project, "approved.txt")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}

	r.say(p, "ask: touch denied.txt")
	r.expect("second dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == "Bash: touch denied.txt" }))
	r.waitScreen(p, "Yes, proceed")
	r.keys(p, "Escape")
	r.expect("denied → ready", one("ready", nil))

	r.say(p, "slow answer please")
	r.expect("slow turn → working", one("working", func(s session) bool { return s.WorkingOn == "slow answer please" }))
	r.keys(p, "Escape")
	r.expect("Esc while working → ready", one("ready", nil))

	r.say(p, "fail this turn")
	r.waitScreen(p, "failed on purpose")
	r.expect("API error (no hook fires) → ready", one("ready", func(s session) bool { return s.WorkingOn == "fail this turn" }))

	r.say(p, "/exit")
	r.expect("/exit → gone", none)
	locks, _ := filepath.Glob(filepath.Join(r.home, ".claude", "sessions", "*.lock"))
	if len(locks) != 0 {
		t.Errorf("locks left after /exit: %v", locks)
	}
}

// TestCodexTwoTerminals: two Codex sessions side by side, each its own
// process and state.
func TestCodexTwoTerminals(t *testing.T) {
	r, codex := codexRig(t)
	a := r.startCodex(codex, "codex-a")
	b := r.startCodex(codex, "codex-b")
	r.say(a, "hello from a")
	r.say(b, "hello from b")
	both := r.expect("both answered → two sessions ready", func(ss []session) bool {
		return len(ss) == 2 && ss[0].State == "ready" && ss[1].State == "ready" && ss[0].PID != nil && ss[1].PID != nil
	})
	pids := map[int]bool{*both[0].PID: true, *both[1].PID: true}
	if !pids[a.PID] || !pids[b.PID] {
		t.Errorf("sessions' pids %v, want the two Codex processes %d and %d", pids, a.PID, b.PID)
	}
	r.say(a, "ask: touch a.txt")
	r.expect("a asks → a waiting, b ready", func(ss []session) bool {
		n := map[string]int{}
		for _, s := range ss {
			n[s.State]++
			if s.State == "waiting" && (s.PID == nil || *s.PID != a.PID) {
				return false
			}
		}
		return len(ss) == 2 && n["waiting"] == 1 && n["ready"] == 1
	})
	r.waitScreen(a, "Yes, proceed")
	r.keys(a, "y")
	r.say(b, "/exit")
	r.expect("b exits → a alone, ready", one("ready", func(s session) bool { return s.PID != nil && *s.PID == a.PID }))
	r.say(a, "/exit")
	r.expect("a exits → none", none)
}
