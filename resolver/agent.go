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

// agentLabels are the names a person knows each agent by, for the menu,
// `hud status` and the notifications.
var agentLabels = map[string]string{
	AgentClaude:   "Claude",
	AgentCodex:    "Codex",
	AgentOpencode: "opencode",
	AgentGemini:   "Gemini",
	AgentCopilot:  "Copilot",
}

// AgentOf is the agent that runs the session of r: the record's agent
// field, AgentClaude when it has none.
func AgentOf(r *Record) string {
	if r == nil || r.Agent == "" {
		return AgentClaude
	}
	return r.Agent
}

// AgentLabel is the name a person knows agent by ("Codex"); an agent this
// version does not know keeps the name its records give it.
func AgentLabel(agent string) string {
	if l, ok := agentLabels[agent]; ok {
		return l
	}
	if agent == "" {
		return agentLabels[AgentClaude]
	}
	return agent
}
