package status

import (
	"github.com/capacitor-hud/hud/hud/view"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/resolver"
)

// View is everything a format may show: the aggregate state and one entry
// per live session, the ones that need the person most first.
type View struct {
	// State sums the sessions up: waiting > working > compacting > ready,
	// idle when none is live.
	State    resolver.State
	Sessions []Session
	// Now is when the view was built; formats measure ages from it.
	Now time.Time
	// HooksProblem is what is wrong with the hooks in the user settings
	// while no live session's events arrive (present.HooksDoubt): the
	// tray's icon is then the unsure one. "" otherwise.
	HooksProblem string
}

// Session is one live session as a person reads it.
type Session struct {
	SessionID string
	State     resolver.State
	CWD       string
	// ProjectDir is the project's root (the record's project_dir, else its
	// cwd); Project is its last element, the name a person knows it by.
	ProjectDir string
	Project    string
	// Name is Claude's name for the session ("auth refactor",
	// resolver.Session.Name); "" for none.
	Name string
	// Agent is the coding agent that runs it (view.Session.Agent).
	Agent string
	// WorkingOn is the first line of the last prompt.
	WorkingOn string
	// WaitingFor says what a waiting session needs ("Bash: npm test");
	// empty unless State is waiting.
	WaitingFor string
	// Agents is how many subagents run now.
	Agents int
	// PID is the Claude process, 0 when unknown.
	PID int
	// Since is when State began; UpdatedAt is the last event.
	Since     time.Time
	UpdatedAt time.Time
	Source    resolver.Source
	// Activity is what the session has done (todos, files, branch,
	// commits); nil when the hook recorded nothing. See LoadActivity.
	Activity *activity.Facts
}

// New builds the view of sessions (as resolver.ResolveAll returns them,
// in that order) at now.
func New(sessions []resolver.Session, now time.Time) *View {
	v := &View{State: resolver.Aggregate(sessions), Now: now, Sessions: []Session{}}
	for i := range sessions {
		v.Sessions = append(v.Sessions, newSession(&sessions[i]))
	}
	return v
}

func newSession(s *resolver.Session) Session {
	v := view.Of(s)
	return Session{
		SessionID:  v.SessionID,
		State:      v.State,
		CWD:        v.CWD,
		PID:        v.PID,
		Since:      v.Since,
		UpdatedAt:  v.UpdatedAt,
		Source:     v.Source,
		Name:       v.ClaudeName,
		ProjectDir: v.ProjectDir,
		Project:    v.Project(),
		WorkingOn:  v.WorkingOn,
		WaitingFor: v.WaitingFor,
		Agents:     v.Agents,
		Agent:      v.Agent,
	}
}

// withAgents puts how many agents the session runs before detail.
func (s *Session) withAgents(detail string) string { return resolver.WithAgents(s.Agents, detail) }

// ProjectView answers `hud status --project PATH`: the
// resolved state of one path.
type ProjectView struct {
	Project string
	// Resolved is nil when no session is active at or under Project.
	Resolved *Resolved
	Now      time.Time
}

// Resolved is a resolution as `hud status --project` shows it.
type Resolved struct {
	Session
	IsFromLock bool
	// Match is how the session's cwd relates to the project: exact,
	// child or parent.
	Match resolver.Match
}

// NewProject builds the view of the resolution of project (ok false: none).
func NewProject(project string, res resolver.Resolution, ok bool, now time.Time) *ProjectView {
	p := &ProjectView{Project: project, Now: now}
	if ok {
		p.Resolved = &Resolved{Session: newSession(&res.Session), IsFromLock: res.IsFromLock, Match: res.Match}
	}
	return p
}
