package agents

import (
	"cmp"

	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/tmux"
)

// sideBySide is two sessions of one agent in two terminals: each shows in
// its own state and its own process, the one that asks waits while the
// other stays ready, and each leaves when its terminal's agent quits.
type sideBySide struct {
	start func(name string) *tmux.Pane
	// greet: the agent starts its session at the first prompt (Copilot),
	// so each terminal says hello first.
	greet bool
	// ask is the prompt that makes the agent ask to run a command
	// ("" for the stand-ins' TOOL:touch a.txt).
	ask    string
	dialog string // what the permission dialog shows
	quit   string // the command that ends the agent
}

func (r *rig) sideBySide(c sideBySide) {
	r.t.Helper()
	a, b := c.start(r.agent+"-a"), c.start(r.agent+"-b")
	if c.greet {
		r.say(a, "hello from a")
		r.say(b, "hello from b")
	}
	r.expect("two sessions ready, one in each terminal", func(ss []session) bool {
		return len(ss) == 2 && ss[0].State == "ready" && ss[1].State == "ready" &&
			(inPane(ss[0], a) && inPane(ss[1], b) || inPane(ss[0], b) && inPane(ss[1], a))
	})
	r.say(a, cmp.Or(c.ask, "TOOL:touch a.txt"))
	r.expect("a asks → a waiting, b ready", func(ss []session) bool {
		if len(ss) != 2 {
			return false
		}
		for _, s := range ss {
			if !(s.State == "waiting" && inPane(s, a) || s.State == "ready" && inPane(s, b)) {
				return false
			}
		}
		return true
	})
	r.waitScreen(a, c.dialog)
	r.answer(a, "Enter", c.dialog)
	r.say(b, c.quit)
	r.expect("b quits → a alone, ready", one("ready", func(s session) bool { return inPane(s, a) }))
	r.say(a, c.quit)
	r.expect("a quits → none", none)
	r.expectNoLocks("both quit → locks released")
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
		proc, err := proc.Inspect(pid)
		if err != nil {
			return false
		}
		pid = proc.PPID
	}
	return false
}
