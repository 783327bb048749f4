package hook

import (
	"encoding/json"
	"fmt"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
)

// A Source is one coding agent as the hook reads it: the agent whose hooks
// run hud-hook, seen from the hook (its payloads, its process, its reply). Claude Code runs the hook with no argument (ClaudeCode); every
// other agent is named by the first one, `hud-hook <agent> [event]`, and
// declared in its own package (hud/agent/...), which maps its payloads
// onto Claude Code's hook events: one state machine (Transition) decides
// every session's state, so a rule fixed for one agent is fixed for all.
type Source struct {
	// Name is the argument that selects the agent and the record's agent
	// field ("" for Claude Code).
	Name string
	// Process names the agent in the debug log ("Codex").
	Process string
	// Decode maps one payload to the event the state machine applies.
	// event is the name given on the command line, "" when the agent
	// passes none. A nil event and nil error is a payload that carries no
	// state (an event the agent fires that hud does not follow).
	Decode func(event string, payload []byte) (*Event, error)
	// IsProcess is the test for the agent's own process among the hook's
	// ancestors: the process whose lifetime is the session's.
	IsProcess func(paths.Layout) func(proc.Process) bool
	// Refuse, when set, says why a process IsProcess matched cannot stand
	// for the session ("" when it can): the hook then records no process.
	Refuse func(proc.Process) string
	// Reply is what the agent needs on stdout from every run, whatever
	// happens ("" for nothing).
	Reply string
	// Answers is set for an agent whose permission dialogs the tray may
	// answer (hud answer on): the decision the hook prints is written in
	// that agent's format, which only Claude Code's is.
	Answers bool
}

// ClaudeCode is the agent the hook serves with no argument.
var ClaudeCode = Source{
	Process: "Claude Code",
	Decode: func(_ string, b []byte) (*Event, error) {
		return DecodeEvent(b)
	},
	// Claude's own session files, which name its process, live in its
	// config directory's sessions/, beside the locks.
	IsProcess: func(l paths.Layout) func(proc.Process) bool {
		return proc.IsClaude(l.LockDir())
	},
	Answers: true,
}

// lookupSource returns the agent args select among agents: Claude Code for
// none, the named one, or an error for a name this version does not know
// (its payload is not Claude's, so it is not guessed at).
func lookupSource(args []string, agents []*Source) (*Source, string, error) {
	if len(args) == 0 {
		return &ClaudeCode, "", nil
	}
	event := ""
	if len(args) > 1 {
		event = args[1]
	}
	for _, a := range agents {
		if a.Name != "" && a.Name == args[0] {
			return a, event, nil
		}
	}
	return nil, "", fmt.Errorf("unknown agent %q (this hud-hook knows %s)", args[0], agentNames(agents))
}

// agentNames lists the named agents for an error message.
func agentNames(agents []*Source) string {
	s := ""
	for _, a := range agents {
		if a.Name == "" {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += a.Name
	}
	return s
}

// What a decoder needs of the hook's own wording, so that another agent's
// dialog reads as Claude's does.

// SourceResume is SessionStart's source for a resumed session.
const SourceResume = sourceResume

// DescribeTool is what a dialog about a call of tool name with input
// waits for, as the menu says it ("Bash: rm f.txt").
func DescribeTool(name string, input json.RawMessage, cwd string) string {
	return describeTool(name, input, cwd)
}

// WaitingFor is text as one line, short enough for what a session waits
// for.
func WaitingFor(text string) string { return oneLine(text, maxWaitingFor) }
