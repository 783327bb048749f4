package status

import (
	"slices"
	"time"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// View is everything a format may show: the aggregate state and one entry
// per live session, the ones that need the person most first.
type View struct {
	// State sums the sessions up: waiting > working > compacting > ready,
	// idle when none is live.
	State    store.State
	Sessions []view.Session
	// Now is when the view was built; formats measure ages from it.
	Now time.Time
	// HooksProblem is what is wrong with the hooks in the user settings
	// while no live session's events arrive (present.HooksDoubt): the
	// tray's icon is then the unsure one. "" otherwise.
	HooksProblem string
	// Remotes are the remote machines (`hud remote add`) and how their
	// streams stand; their sessions are in Sessions, with their Host.
	Remotes []view.Remote
	// Accounts are the Claude accounts' usage limits (each followed
	// config directory's); empty where the caller did not load them.
	Accounts []view.Account
}

// AddRemotes puts the sessions of remote machines beside the local ones,
// every session still in the order of how much it needs the person, and
// records how each machine's stream stands.
func (v *View) AddRemotes(remotes []view.Remote, sessions []view.Session) {
	v.Remotes = append(v.Remotes, remotes...)
	for _, s := range sessions {
		v.Sessions = append(v.Sessions, s)
		if s.State.Attention() > v.State.Attention() {
			v.State = s.State
		}
	}
	// Stable: within a state, local sessions first, each machine's in
	// the order it sent them.
	slices.SortStableFunc(v.Sessions, func(a, b view.Session) int {
		return b.State.Attention() - a.State.Attention()
	})
}

// New builds the view of sessions (as resolver.ResolveAll returns them,
// in that order) at now.
func New(sessions []resolver.Session, now time.Time) *View {
	return &View{State: resolver.Aggregate(sessions), Now: now, Sessions: view.All(sessions)}
}

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
	view.Session
	IsFromLock bool
	// Match is how the session's cwd relates to the project: exact,
	// child or parent.
	Match paths.Match
}

// NewProject builds the view of the resolution of project (ok false: none).
func NewProject(project string, res resolver.Resolution, ok bool, now time.Time) *ProjectView {
	p := &ProjectView{Project: project, Now: now}
	if ok {
		p.Resolved = &Resolved{Session: view.Of(&res.Session), IsFromLock: res.IsFromLock, Match: res.Match}
	}
	return p
}
