package resolver

import (
	"strconv"

	"github.com/capacitor-hud/hud/internal/store"
)

// SubagentsRunning is how many subagents the session runs now: the record's
// count while the session is not ready. Claude's own file turning a
// session ready (it went idle) outranks a record that still counts
// agents whose end no hook reported.
func (s *Session) SubagentsRunning() int {
	if s.Record == nil || s.State == store.StateReady {
		return 0
	}
	return len(s.Record.Subagents)
}

// WaitingFor says what a waiting session needs, in the person's words:
// what the hook recorded ("Bash: npm test", a question, "plan approval"),
// else the dialog Claude names in its own session file (a startup
// question: "dialog open"). Empty unless the session is waiting.
func (s *Session) WaitingFor() string {
	if s.State != store.StateWaiting {
		return ""
	}
	if s.Record != nil && s.Record.WaitingFor != "" {
		return s.Record.WaitingFor
	}
	if s.Opinion != nil {
		return s.Opinion.WaitingFor
	}
	return ""
}

// WithSubagents puts how many subagents run before detail, what a session works
// on or waits for: `1 agent running · "fix the tests"`.
func WithSubagents(n int, detail string) string {
	agents := SubagentsText(n)
	switch {
	case agents == "":
		return detail
	case detail == "":
		return agents
	}
	return agents + " · " + detail
}

// SubagentsText says how many subagents run: "1 agent running", "3 agents
// running"; "" for none. "running" sets it apart from the activity line's
// count of the agents a session started in all.
func SubagentsText(n int) string {
	switch {
	case n <= 0:
		return ""
	case n == 1:
		return "1 agent running"
	}
	return strconv.Itoa(n) + " agents running"
}
