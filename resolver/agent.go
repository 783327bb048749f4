package resolver

// The agents whose hooks write the store, as the record's agent field
// names them. Claude Code writes "" (records older than the field, and
// every Claude hook since, which passes no agent): AgentOf reads both as
// AgentClaude.
const (
	AgentClaude   = "claude"
	AgentCodex    = "codex"
	AgentOpencode = "opencode"
	AgentGemini   = "gemini"
	AgentCopilot  = "copilot"
)

// AgentOf is the agent that runs the session of r: the record's agent
// field, AgentClaude when it has none.
func AgentOf(r *Record) string {
	if r == nil || r.Agent == "" {
		return AgentClaude
	}
	return r.Agent
}

// AgentLabel is the name a person knows agent by ("Codex"), for the menu,
// `hud status` and the notifications; an agent this version does not know
// keeps the name its records give it. (A switch, not a map: the hook
// links this package, and a map literal is built at every start.)
func AgentLabel(agent string) string {
	switch agent {
	case "", AgentClaude:
		return "Claude"
	case AgentCodex:
		return "Codex"
	case AgentGemini:
		return "Gemini"
	case AgentCopilot:
		return "Copilot"
	}
	return agent // opencode's own spelling, or an agent this version does not know
}
