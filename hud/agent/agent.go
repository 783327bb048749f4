// Package agent is what hud knows of one coding agent, behind one small
// interface: its name and label, how the hook reads its payloads, and how
// to read its own log for what its hooks miss. Each agent is a package of
// its own (hud/agent/codex, …) whose type (codex.Codex) implements Kind, and
// hud/agent/registry lists them once: the hook, the readers, the menu and
// the notifications range over that list, so adding an agent is its
// package and a line there (docs/architecture.md).
//
// This package and the agents' import only the resolver, the hook,
// hud/install and the standard library. The hook links them all and must
// stay fast, yet pays nothing for install: hud/install does no work at
// package initialisation, and each agent builds its Setup inside the
// method, which the hook never calls, so the linker leaves it out
// (cmd/hud-hook's TestHookLinksNoInstall keeps it so).
package agent

import (
	"bytes"

	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/resolver"
)

// A Kind is one kind of coding agent hud follows (Claude Code, Codex, …),
// implemented by its package under hud/agent; a session's record names
// its kind (store.Record.Agent).
type Kind interface {
	// Name is how the store's records, `hud-hook <name>` and `hud install
	// <name>` name the agent ("codex"); resolver.AgentClaude for Claude
	// Code, whose records carry no name.
	Name() string
	// Label is the name a person knows it by, in the menu, `hud status`
	// and the notifications ("Codex").
	Label() string
	// Log is how to read the agent's own log for the turn ends its hooks
	// miss (and, for a resolver.AgentRunway, its context in use); nil for
	// an agent whose hooks tell it all.
	Log() resolver.AgentLog
	// Hook is how hud-hook reads the agent's payloads and finds its
	// process.
	Hook() *hook.Source
	// Setup is how `hud install <name>` wires hud-hook into the agent's
	// own files, `hud uninstall <name>` takes it out and `hud doctor`
	// checks it; a new one on each call. Nil for Claude Code, which
	// `hud install` with no agent wires into its settings.
	Setup() *install.Setup
}

// JSONLines calls fn with each line of a log's tail that holds a JSON
// object, oldest first. The tail starts at a whole line
// (resolver.AgentLog.TurnEnd).
func JSONLines(tail []byte, fn func(line []byte)) {
	for _, line := range bytes.Split(tail, []byte{'\n'}) {
		if len(line) > 0 && line[0] == '{' {
			fn(line)
		}
	}
}
