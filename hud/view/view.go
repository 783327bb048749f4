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
	// ByClaude is set when Claude's own session file decided the state
	// rather than a hook event: a turn that ended so was interrupted (Esc).
	ByClaude bool
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
		Agents:     s.AgentsRunning(),
		ByClaude:   s.Opinion != nil,
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
	return WithHost(s.Host, NameOf(cmp.Or(s.ProjectDir, s.CWD), s.ClaudeName, s.Key))
}

// WithHost puts the host of a remote session before its name ("devbox ·
// api"); a local session's name (host "") is left as it is.
func WithHost(host, name string) string {
	if host == "" {
		return name
	}
	return text.Line(host, 40) + " · " + name
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

// Remote is how one remote machine's stream stands, for the surfaces that
// show sessions: its sessions come as Sessions with its Host, and this
// says whether they can be trusted (the machine is reachable) and, when
// not, why and since when.
type Remote struct {
	// Host is the name the person gave the machine ("devbox").
	Host string
	// Up is set while the machine's stream is live.
	Up bool
	// Connecting is set until the machine first answers or fails: neither
	// its sessions nor an alarm yet.
	Connecting bool
	// Since is when the machine became reachable or unreachable.
	Since time.Time
	// Problem says what is wrong with the remote's hud and what to do
	// about it ("hud not found on the remote — install it, or …"); ""
	// while Up or when the machine is merely unreachable.
	Problem string
	// Detail is ssh's own word on the last failure ("Connection
	// refused"), made plain text; "" for none.
	Detail string
}

// Status is the remote's state as one line, for menus and tables:
// "devbox: unreachable since 10:42 (Connection refused)".
func (r *Remote) Status(now time.Time) string {
	host := text.Line(r.Host, 40)
	switch {
	case r.Up:
		return host + ": connected"
	case r.Connecting:
		return host + ": connecting…"
	case r.Problem != "":
		return host + ": " + r.Problem
	}
	line := host + ": unreachable"
	if !r.Since.IsZero() {
		line += " since " + clock(r.Since, now)
	}
	if d := text.Line(r.Detail, 80); d != "" {
		line += " (" + d + ")"
	}
	return line
}

// clock is a moment as a person reads it in a status: "10:42" today,
// "Mon 10:42" within the week, else the date.
func clock(t, now time.Time) string {
	t = t.In(now.Location())
	switch {
	case t.YearDay() == now.YearDay() && t.Year() == now.Year():
		return t.Format("15:04")
	case now.Sub(t) < 6*24*time.Hour:
		return t.Format("Mon 15:04")
	}
	return t.Format("2006-01-02 15:04")
}
