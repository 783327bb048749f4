package agents

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/internal/tmux"
)

// walk is one session of an agent taken through every step a person
// takes, with `hud status` checked after each: a prompt answered, a
// permission approved and one denied, a question answered, Esc while it
// works, a model error, and the agent's quit. What differs between the
// agents is what their screens show and which keys do it.
type walk struct {
	// atPrompt: the agent starts its session at the first prompt
	// (Copilot), so none shows before it.
	atPrompt bool
	// dialog is on the screen while a permission dialog is up, denied
	// once it was denied.
	dialog, denied string
	// waitingFor is what hud says a session waits for on a dialog to run
	// command, question what it says on the stand-in's question.
	waitingFor func(command string) string
	question   string
	// asked is on the screen while the question is up; answer answers it.
	asked  string
	answer func(r *rig, p *tmux.Pane)
	// interrupt stops a turn while it works.
	interrupt func(r *rig, p *tmux.Pane)
	// failed is on the screen once the model's error ended a turn.
	failed string
	quit   string
}

func (r *rig) walk(p *tmux.Pane, w walk) {
	r.t.Helper()
	if w.atPrompt {
		r.expect("started: no session until the first prompt", none)
	} else {
		r.expect("started → ready", one("ready", func(s session) bool { return s.Source == "lock" && inPane(s, p) }))
	}

	r.say(p, "hello")
	r.waitScreen(p, "Hello from the stand-in")
	r.expect("prompt answered → ready", one("ready", func(s session) bool {
		return s.WorkingOn == "hello" && s.Source == "lock" && inPane(s, p)
	}))

	r.say(p, "TOOL:touch approved.txt")
	r.expect("permission dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == w.waitingFor("touch approved.txt") }))
	r.waitScreen(p, w.dialog)
	r.keys(p, "Enter")
	r.expect("approved → ready", one("ready", nil))
	if _, err := os.Stat(filepath.Join(r.project, "approved.txt")); err != nil {
		r.t.Errorf("the approved command did not run: %v", err)
	}

	r.say(p, "TOOL:touch denied.txt")
	r.expect("second dialog → waiting", one("waiting", func(s session) bool { return s.WaitingFor == w.waitingFor("touch denied.txt") }))
	r.waitScreen(p, w.dialog)
	r.keys(p, "Escape")
	r.expect("denied (no hook fires) → ready", one("ready", nil))
	r.waitScreen(p, w.denied)

	r.say(p, "ASK:Which colour")
	r.expect("a question → waiting", one("waiting", func(s session) bool { return s.WaitingFor == w.question }))
	r.waitScreen(p, w.asked)
	w.answer(r, p)
	r.expect("answered → ready", one("ready", nil))

	r.say(p, "SLOW:30 tell a story")
	r.expect("slow turn → working", one("working", func(s session) bool { return s.WorkingOn == "SLOW:30 tell a story" }))
	// Esc once the answer streams: before its first words Copilot's Esc
	// Esc puts the prompt back to be edited instead (resolver's
	// transcript tests read that one from a recording).
	r.waitScreen(p, "This answer streams slowly")
	w.interrupt(r, p)
	r.expect("interrupted while working → ready", one("ready", nil))

	r.say(p, "ERROR:400 please")
	r.waitScreen(p, w.failed)
	r.expect("model error → ready", one("ready", func(s session) bool { return s.WorkingOn == "ERROR:400 please" }))

	r.say(p, w.quit)
	r.expect(w.quit+" → gone", none)
}

// installFor writes the agent's own settings into the rig's HOME (paths
// relative to it), as the person had them, then wires hud in with `hud
// install <agent>`; hud doctor must then say the agent (label) is
// installed.
func (r *rig) installFor(label string, files map[string]string) {
	r.t.Helper()
	for rel, body := range files {
		p := filepath.Join(r.home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			r.t.Fatal(err)
		}
	}
	if out, err := r.hud("install", r.agent, "--hook", r.hook); err != nil {
		r.t.Fatalf("hud install %s: %v\n%s", r.agent, err, out)
	}
	if out, _ := r.hud("doctor"); !strings.Contains(out, label+": installed") {
		r.t.Errorf("after hud install %s, hud doctor does not say it is installed:\n%s", r.agent, out)
	}
}
