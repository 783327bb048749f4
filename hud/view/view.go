// Package view is one live session as a person sees it, computed once from
// what the resolver found, for every surface that shows sessions: the
// menu (hud/present), every `hud status` format and the status line
// (hud/status), and the notifications (hud/notify). Each surface picks
// what it shows from the same Session, so a session has one name, one
// waiting reason, one activity line and one doubt everywhere, and a line
// that sums sessions up (Summary) reads the same in the tray and in a
// status bar.
package view

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
	"github.com/capacitor-hud/hud/resolver"
)

// Session is one live session as every surface shows it.
type Session struct {
	// Key identifies the session across views (resolver.Session.Key).
	Key       string
	SessionID string
	State     store.State
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
	// Subagents is how many subagents run now.
	Subagents int
	// Terminal is where Claude runs (its tmux pane, terminal window), as
	// the hook recorded it, checked again: the store is only a file.
	terminal.Terminal
	// Hooked is set when the session's hook events arrive (it has a
	// record), wherever its hooks were wired.
	Hooked bool
	// TurnStartedAt is when the current turn began (zero: unknown).
	TurnStartedAt time.Time
	// Agent is the coding agent that runs the session
	// (resolver.AgentClaude, or another agent's name in hud/agent/registry).
	Agent string
	// ByClaude is set when Claude's own session file decided the state
	// rather than a hook event: a turn that ended so was interrupted (Esc).
	ByClaude bool
	// Activity is what the session has done (todos, files, branch,
	// commits); nil when the hook recorded nothing or the surface did not
	// load it (LoadActivity).
	Activity *activity.Facts
	// Dialog is the permission dialog or question the session waits on,
	// with the choices it offers, while the hook waits for the tray to
	// answer it (hud answer on); nil otherwise. The tray fills it in from
	// what hooks offered it (hud/answer).
	Dialog *answer.Request
	// Context is how full the session's context window is (Claude Code's
	// sessions: its transcript, its status line); nil when unknown.
	Context *resolver.Context
	// Host names the machine the session runs on, as the person named it
	// with `hud remote add` ("devbox"); "" for this machine. Every
	// surface puts it before the session's name (Name).
	Host string
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
		Subagents:  s.SubagentsRunning(),
		ByClaude:   s.Opinion != nil,
		Agent:      resolver.AgentOf(s.Record),
		Context:    contextOf(s),
	}
	if rec := s.Record; rec != nil {
		v.Hooked = true
		v.ProjectDir = cmp.Or(rec.Project(), s.CWD)
		v.WorkingOn = rec.WorkingOn
		v.Terminal = rec.Terminal.Checked()
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

// LoadActivity fills each session's Activity with ActivityOf.
func LoadActivity(sessions []Session, l paths.Layout) {
	for i := range sessions {
		sessions[i].Activity = ActivityOf(l, sessions[i].SessionID)
	}
}

// ActivityOf is what the hook recorded of session id
// (~/.capacitor/activity/<id>.json); nil for none, or an unreadable
// record: the facts are a bonus, never a reason to fail.
func ActivityOf(l paths.Layout, id string) *activity.Facts {
	if id == "" {
		return nil
	}
	a, err := activity.Load(l, id)
	if err != nil || a == nil {
		return nil
	}
	facts := activity.FactsOf(a)
	return &facts
}

// LockGrace is how long a session may run on a fresh record alone before
// it is doubted: the hook starts the lock holder at SessionStart, so a
// lock is normally there within milliseconds. Past this, the holder
// failed to start (or the hooks are old) and the session disappears
// silently when its record goes stale.
const LockGrace = 10 * time.Second

// Doubt says why the session's State cannot be trusted at now ("no lock
// holder", "no hook event recorded"), "" when it can, and when that
// answer changes by itself (zero: never).
func (s *Session) Doubt(now time.Time) (doubt string, changesAt time.Time) {
	if !s.Hooked {
		return "no hook event recorded", time.Time{}
	}
	if s.Source != resolver.SourceFresh {
		return "", time.Time{}
	}
	if doubtAt := s.UpdatedAt.Add(LockGrace); now.Before(doubtAt) {
		return "", doubtAt
	}
	// The resolver keeps a record of age exactly FreshTTL; it drops it the
	// next millisecond (store resolution).
	return "no lock holder", s.UpdatedAt.Add(resolver.FreshTTL + time.Millisecond)
}

// Project is the name a person knows the project by: the last element of
// ProjectDir ("/" for the root itself), "" when none is known.
func (s *Session) Project() string { return BaseName(s.ProjectDir) }

// Name is the session's one name, on every surface: its project and
// Claude's name for it ("api · auth refactor"), or "session abcdef12"
// when no directory is known. Both parts are anyone's to choose (a
// directory, a session renamed in Claude), so both are made plain text.
func (s *Session) Name() string {
	return WithHost(s.Host, WithAgent(NameOf(cmp.Or(s.ProjectDir, s.CWD), s.ClaudeName, s.Key), s.Agent))
}

// WithHost puts the host of a remote session before its name ("devbox ·
// api"); a local session's name (host "") is left as it is.
func WithHost(host, name string) string {
	if host == "" {
		return name
	}
	return text.Line(host, 40) + " · " + name
}

// NameOf is Session.Name from its parts.
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
	return name + " (" + registry.Label(agent) + ")"
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
var Shown = []store.State{store.StateWaiting, store.StateWorking, store.StateCompacting, store.StateReady}

// Part is one state's share of a summary: "2 working", or the waiting
// sessions by name while few wait ("api waiting"). State is "" for the
// sessions in a state outside Shown ("1 unknown").
type Part struct {
	State store.State
	Text  string
}

// Summary sums sessions up by state, attention first ("1 waiting", "2
// working"), naming the waiting sessions instead of counting them when no
// more than nameWaiting wait. Every surface that sums sessions up in a
// line words it so: the tray's title and tooltip, and `hud status`'s
// one-line formats.
func Summary(sessions []Session, nameWaiting int) []Part {
	var parts []Part
	shown := 0
	for _, st := range Shown {
		var names []string
		for i := range sessions {
			if sessions[i].State == st {
				names = append(names, sessions[i].Name())
			}
		}
		if len(names) == 0 {
			continue
		}
		shown += len(names)
		part := Part{st, fmt.Sprintf("%d %s", len(names), st)}
		if st == store.StateWaiting && len(names) <= nameWaiting {
			part.Text = strings.Join(names, ", ") + " " + string(st)
		}
		parts = append(parts, part)
	}
	if other := len(sessions) - shown; other > 0 {
		parts = append(parts, Part{"", fmt.Sprintf("%d unknown", other)})
	}
	return parts
}

// IsShown reports whether st is one of the states every surface names;
// any other is "unknown" to a person.
func IsShown(st store.State) bool { return slices.Contains(Shown, st) }
