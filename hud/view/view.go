// Package view is one live session as a person sees it, computed once from
// what the resolver found, for every surface that shows sessions: the
// menu (hud/present), every `hud status` format and the status line
// (hud/status), and the notifications (hud/notify). Each surface picks
// what it shows from the same Session, so a session has one name and one
// waiting reason everywhere.
package view

import (
	"cmp"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/resolver"
)

// Session is one live session as every surface shows it.
type Session struct {
	// Key identifies the session across views (resolver.Session.Key).
	Key       string
	SessionID string
	State     resolver.State
	// Since is when State began; UpdatedAt is the last event.
	Since     time.Time
	UpdatedAt time.Time
	Source    resolver.Source
	// PID is the Claude process, 0 when unknown.
	PID int
	CWD string
	// ProjectDir is the project's root: the record's project_dir, else
	// the cwd.
	ProjectDir string
	// ClaudeName is Claude's own name for the session ("auth refactor",
	// resolver.Session.Name); "" for none.
	ClaudeName string
	// WorkingOn is the first line of the last prompt.
	WorkingOn string
	// WaitingFor says what a waiting session needs ("Bash: npm test"),
	// from the hook's record or else Claude's own session file; "" unless
	// State is waiting.
	WaitingFor string
	// Agents is how many subagents run now.
	Agents int
	// TmuxPane is the pane Claude runs in ("%3"), when it runs in tmux.
	TmuxPane string
	// Hooked is set when the session's hook events arrive (it has a
	// record), wherever its hooks were wired.
	Hooked bool
	// TurnStartedAt is when the current turn began (zero: unknown).
	TurnStartedAt time.Time
	// Agent is the coding agent that runs the session
	// (resolver.AgentClaude, resolver.AgentCodex, …).
	Agent string
	// ByClaude is set when Claude's own session file decided the state
	// rather than a hook event: a turn that ended so was interrupted (Esc).
	ByClaude bool
}

// Of computes the view of one resolved session.
func Of(s *resolver.Session) Session {
	v := Session{
		Key:        s.Key(),
		SessionID:  s.SessionID,
		State:      s.State,
		Since:      s.Since,
		UpdatedAt:  s.UpdatedAt(),
		Source:     s.Source,
		PID:        s.PID,
		CWD:        s.CWD,
		ProjectDir: s.CWD,
		ClaudeName: s.Name(),
		WaitingFor: s.WaitingFor(),
		Agents:     s.AgentsRunning(),
		ByClaude:   s.Opinion != nil,
		Agent:      resolver.AgentOf(s.Record),
	}
	if rec := s.Record; rec != nil {
		v.Hooked = true
		v.ProjectDir = cmp.Or(rec.Project(), s.CWD)
		v.WorkingOn = rec.WorkingOn
		v.TmuxPane = rec.TmuxPane
		v.TurnStartedAt = rec.TurnStartedAt.Time
	}
	return v
}

// All computes the views of sessions, in their order.
func All(sessions []resolver.Session) []Session {
	out := make([]Session, len(sessions))
	for i := range sessions {
		out[i] = Of(&sessions[i])
	}
	return out
}

// Project is the name a person knows the project by: the last element of
// ProjectDir ("/" for the root itself), "" when none is known.
func (s *Session) Project() string { return BaseName(s.ProjectDir) }

// Name is the session's one name, on every surface: its project and
// Claude's name for it ("api · auth refactor"), or "session abcdef12"
// when no directory is known. Both parts are anyone's to choose (a
// directory, a session renamed in Claude), so both are made plain text.
func (s *Session) Name() string {
	return WithAgent(NameOf(cmp.Or(s.ProjectDir, s.CWD), s.ClaudeName, s.Key), s.Agent)
}

// NameOf is Session.Name from its parts, for surfaces that keep their own
// copy of them (the notifications' rules).
func NameOf(projectDir, claudeName, key string) string {
	label := text.Line(BaseName(projectDir), 60)
	if label == "" {
		label = "session " + ShortID(key)
	}
	return resolver.WithName(label, text.Line(claudeName, 40))
}

// WithAgent is a session's name as every surface shows it once its agent
// is known: Claude Code's sessions keep their name ("api · auth
// refactor"), another agent's say which agent it is ("api (Codex)"), so a
// person who runs several agents tells them apart at a glance.
func WithAgent(name, agent string) string {
	if agent == "" || agent == resolver.AgentClaude {
		return name
	}
	return name + " (" + resolver.AgentLabel(agent) + ")"
}

// BaseName is the last element of dir: "" for none, dir itself for the
// root.
func BaseName(dir string) string {
	if dir == "" {
		return ""
	}
	b := filepath.Base(dir)
	if b == "." || b == string(filepath.Separator) {
		return dir
	}
	return b
}

// ShortID is the first eight characters of a session id, as a person
// tells sessions apart.
func ShortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// Shown are the states every surface lists and counts, in the order of how
// much they need the person: a summary reads "1 waiting · 2 working".
var Shown = []resolver.State{resolver.StateWaiting, resolver.StateWorking, resolver.StateCompacting, resolver.StateReady}
