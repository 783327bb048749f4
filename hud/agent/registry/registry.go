// Package registry is the one list of the coding agents hud follows. The
// hook, the readers (their logs), the menu and the notifications (their
// labels) range over All; adding an agent is its package under hud/agent
// and a line here.
package registry

import (
	"github.com/capacitor-hud/hud/hud/agent"
	"github.com/capacitor-hud/hud/hud/agent/claude"
	"github.com/capacitor-hud/hud/hud/agent/codex"
	"github.com/capacitor-hud/hud/hud/agent/copilot"
	"github.com/capacitor-hud/hud/hud/agent/gemini"
	"github.com/capacitor-hud/hud/hud/agent/opencode"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/resolver"
)

// All are the agents, Claude Code first. A slice, not a map: its order is
// the order every list of agents is given in.
var All = []agent.Kind{claude.ClaudeCode{}, codex.Codex{}, opencode.OpenCode{}, gemini.Gemini{}, copilot.Copilot{}}

// Lookup is the agent a record's agent field names: Claude Code for "",
// false for a name this version does not know.
func Lookup(name string) (agent.Kind, bool) {
	if name == "" {
		name = resolver.AgentClaude
	}
	for _, a := range All {
		if a.Name() == name {
			return a, true
		}
	}
	return nil, false
}

// Label is the name a person knows the named agent by ("Codex"); an agent
// this version does not know keeps the name its records give it.
func Label(name string) string {
	if a, ok := Lookup(name); ok {
		return a.Label()
	}
	return name
}

// Sources are the agents as the hook reads them, for hud-hook
// (hook.Env.Sources).
func Sources() []*hook.Source {
	out := make([]*hook.Source, len(All))
	for i, a := range All {
		out[i] = a.Hook()
	}
	return out
}

// Logs is the log of the named agent, for the readers
// (resolver.AgentLogs); nil for an agent whose hooks tell it all, or one
// this version does not know.
func Logs(name string) resolver.AgentLog {
	if a, ok := Lookup(name); ok {
		return a.Log()
	}
	return nil
}
