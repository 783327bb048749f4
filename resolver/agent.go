package resolver

import "github.com/capacitor-hud/hud/internal/store"

// AgentClaude names Claude Code, the agent whose records carry no agent
// field: records older than the field, and every Claude hook since, which
// passes no agent. Every other agent's name is its own package's
// (hud/agent/...), and the store holds whatever name its hook wrote.
const AgentClaude = "claude"

// AgentOf is the agent that runs the session of r: the record's agent
// field, AgentClaude when it has none.
func AgentOf(r *store.Record) string {
	if r == nil || r.Agent == "" {
		return AgentClaude
	}
	return r.Agent
}
