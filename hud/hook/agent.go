package hook

import (
	"fmt"

	"github.com/capacitor-hud/hud/lockholder"
	"github.com/capacitor-hud/hud/resolver"
)

// An agent is a coding agent whose hooks run hud-hook. Claude Code runs
// the hook with no argument; every other agent is named by the first one,
// `hud-hook <agent> [event]`. Each agent's payloads are mapped onto Claude
// Code's hook events, so one state machine (Transition) decides every
// session's state and a rule fixed for one agent is fixed for all. Adding
// an agent is one file: its decoder and process test, and a line in
// codingAgents.
type agent struct {
	// name is the argument that selects the agent and the record's agent
	// field ("" for Claude Code).
	name string
	// process names the agent in the debug log ("Codex").
	process string
	// decode maps one payload to the event the state machine applies.
	// event is the name given on the command line, "" when the agent
	// passes none. A nil event and nil error is a payload that carries no
	// state (an event the agent fires that hud does not follow).
	decode func(event string, payload []byte) (*Event, error)
	// isProcess is the test for the agent's own process among the hook's
	// ancestors: the process whose lifetime is the session's.
	isProcess func(resolver.Layout) func(lockholder.Process) bool
	// refuse, when set, says why a process isProcess matched cannot
	// stand for the session ("" when it can): the hook then records no
	// process.
	refuse func(lockholder.Process) string
	// reply is what the agent needs on stdout from every run, whatever
	// happens ("" for nothing).
	reply string
	// answers is set for an agent whose permission dialogs the tray may
	// answer (hud answer on): the decision the hook prints is written in
	// that agent's format, which only Claude Code's is.
	answers bool
}

// claudeCode is the agent the hook serves with no argument.
var claudeCode = agent{
	process: "Claude Code",
	decode: func(_ string, b []byte) (*Event, error) {
		return DecodeEvent(b)
	},
	// Claude's own session files, which name its process, live in its
	// config directory's sessions/, beside the locks.
	isProcess: func(l resolver.Layout) func(lockholder.Process) bool {
		return lockholder.IsClaude(l.LockDir())
	},
	answers: true,
}

// codingAgents are the agents named on the command line.
var codingAgents = []*agent{&codexAgent, &opencodeAgent, &geminiAgent, &copilotAgent}

// lookupAgent returns the agent args select: Claude Code for none, the
// named one, or an error for a name this version does not know (its
// payload is not Claude's, so it is not guessed at).
func lookupAgent(args []string) (*agent, string, error) {
	if len(args) == 0 {
		return &claudeCode, "", nil
	}
	event := ""
	if len(args) > 1 {
		event = args[1]
	}
	for _, a := range codingAgents {
		if a.name == args[0] {
			return a, event, nil
		}
	}
	return nil, "", fmt.Errorf("unknown agent %q (this hud-hook knows %s)", args[0], agentNames())
}

// agentNames lists the agents' names for an error message.
func agentNames() string {
	s := ""
	for i, a := range codingAgents {
		if i > 0 {
			s += ", "
		}
		s += a.name
	}
	return s
}
