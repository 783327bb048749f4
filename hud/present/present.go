package present

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
	"github.com/capacitor-hud/hud/resolver"
)

// Input is everything the presenter looks at.
type Input struct {
	// Sessions are the live sessions, with their Activity loaded when the
	// menu should show it.
	Sessions []view.Session
	Now      time.Time
	// HooksProblem says what is wrong with our hooks in Claude Code's
	// user settings ("Hooks not installed"); "" when they are in place.
	// The menu then offers to install them, and while no session's events
	// arrive nothing the tray shows can be trusted (HooksDoubt).
	HooksProblem string
	// ShowTitle puts the short summary next to the icon (macOS).
	ShowTitle bool
	// MaxRows caps the session rows; the rest are summed up in one row.
	// Zero means DefaultMaxRows.
	MaxRows int
	// Accounts are the Claude accounts' usage limits.
	Accounts []view.Account
}

// MoreLine sums up n things the menu has no room for.
func MoreLine(n int) string {
	return fmt.Sprintf("%d more — run 'hud status' to see all", n)
}

// DefaultMaxRows is how many sessions the menu lists one by one.
const DefaultMaxRows = 10

// View is the tray's whole picture at one moment.
type View struct {
	// Icon is an assets icon name; Count the sessions for its badge.
	Icon  string
	Count int
	// Title is the short text beside the icon on macOS ("" hides it).
	Title   string
	Tooltip string
	// Status is a line above the sessions that cannot be clicked ("No
	// Claude Code sessions"); empty when there is nothing to say.
	Status string
	// HooksProblem is Input.HooksProblem: the menu offers to install.
	HooksProblem string
	// Rows are the sessions, attention first.
	Rows []Row
	// Hidden is how many sessions are beyond MaxRows, which the menu sums
	// up in one line (MoreLine).
	Hidden int
	// Accounts are one line per Claude account's usage limits
	// (view.AccountLines), under the sessions; none while no account's limits
	// are known.
	Accounts []string
	// NextLabel is when a "since" label next ticks over ("2m" → "3m");
	// NextChange is when the sessions themselves change by the clock (a
	// fresh record expiring). Zero if never. They are apart because only
	// the second must be drawn on time when nobody looks at the menu.
	NextLabel  time.Time
	NextChange time.Time
}

// Row is one session's menu item.
type Row struct {
	// Key identifies the session across views (its session id).
	Key     string
	Label   string
	Tooltip string
	// Detail is the session's activity, shown on a line of its own under
	// the row; empty for none.
	Detail string
	// Focus is what clicking the row brings forward.
	Focus view.Place
}

// Present computes the view of in.
func Present(in Input) View {
	sessions := slices.Clone(in.Sessions)
	ByAttention(sessions)
	maxRows := cmp.Or(in.MaxRows, DefaultMaxRows)

	v := View{Count: len(sessions), HooksProblem: in.HooksProblem}
	// A remote session's events say nothing of this machine's hooks.
	doubt := HooksDoubt(in.HooksProblem, slices.ContainsFunc(sessions, func(s view.Session) bool { return s.Hooked && s.Host == "" }))
	v.Icon = iconFor(sessions, in.Now, doubt == "")
	summary := SummaryLine(sessions)
	if in.ShowTitle {
		v.Title = summary
	}
	if len(sessions) == 0 {
		v.Status = "No Claude Code sessions"
	}

	names := labelNames(sessions)
	var nextLabel, nextChange time.Time
	tooltip := []string{agentsTitle(sessions) + ": " + cmp.Or(summary, "no sessions")}
	switch {
	case doubt != "":
		tooltip = append(tooltip, doubt+": states may be missing or stale")
	case in.HooksProblem != "":
		tooltip = append(tooltip, in.HooksProblem+" in your user settings: only sessions with hooks of their own report")
	}
	for i, s := range sessions {
		age := in.Now.Sub(s.Since)
		label := names[i] + " — " + stateText(s.State) + " " + text.Age(age)
		if ctx := s.ContextShort(); ctx != "" {
			label += " · " + ctx
		}
		if detail := resolver.WithSubagents(s.Subagents, detailOf(s)); detail != "" {
			label += " — " + detail
		}
		unsure, changesAt := s.Doubt(in.Now)
		if unsure != "" {
			label += " (unsure: " + unsure + ")"
		}
		if i < maxRows {
			v.Rows = append(v.Rows, Row{
				Key:     s.Key,
				Label:   label,
				Tooltip: rowTooltip(s),
				Detail:  activityLine(s.Activity),
				Focus:   s.Place(),
			})
			tooltip = append(tooltip, label)
		}
		nextLabel = Earliest(nextLabel, in.Now.Add(text.UntilAgeChanges(age)))
		if changesAt.After(in.Now) {
			nextChange = Earliest(nextChange, changesAt)
		}
	}
	if extra := len(sessions) - maxRows; extra > 0 {
		v.Hidden = extra
		tooltip = append(tooltip, fmt.Sprintf("and %d more", extra))
	}
	v.Accounts = view.AccountLines(in.Accounts, in.Now)
	tooltip = append(tooltip, v.Accounts...)
	if len(v.Accounts) > 0 {
		// Their countdowns and ages tick by the minute; a window turns
		// unknown at its reset.
		nextLabel = Earliest(nextLabel, in.Now.Add(time.Minute))
		for _, a := range in.Accounts {
			for _, w := range []*resolver.RateLimit{a.FiveHour.Known(in.Now), a.SevenDay.Known(in.Now)} {
				if w != nil && !w.ResetsAt.IsZero() {
					nextChange = Earliest(nextChange, w.ResetsAt)
				}
			}
		}
	}
	v.Tooltip = strings.Join(tooltip, "\n")
	v.NextLabel, v.NextChange = nextLabel, nextChange
	return v
}

// ByAttention orders sessions as the menu lists them: the most urgent
// state first, then the longest in it, then by project and id so the order
// never flickers between two equal sessions.
func ByAttention(sessions []view.Session) {
	slices.SortStableFunc(sessions, func(a, b view.Session) int {
		return cmp.Or(
			cmp.Compare(b.State.Attention(), a.State.Attention()),
			a.Since.Compare(b.Since),
			cmp.Compare(view.BaseName(a.ProjectDir), view.BaseName(b.ProjectDir)),
			cmp.Compare(a.Key, b.Key),
		)
	})
}

// HooksDoubt is the problem with the hooks in the user settings while it
// makes the whole picture doubtful, "" when it does not: hooks wired
// elsewhere (a project's .claude/settings.json, claude --settings, a
// plugin) report just as well, so once any live session's events arrive
// its state is shown as it is. Only while none arrive can an empty or
// stale picture be the hooks' fault.
func HooksDoubt(problem string, eventsArrive bool) string {
	if eventsArrive {
		return ""
	}
	return problem
}

// iconFor picks the icon: unsure when the hooks are missing or the session
// that decides the picture cannot be trusted, else the state of the session
// that needs the person most, idle when none is live.
func iconFor(sorted []view.Session, now time.Time, hooksInstalled bool) string {
	switch {
	case !hooksInstalled:
		return assets.IconUnsure
	case len(sorted) == 0:
		return assets.IconIdle
	}
	top := sorted[0]
	if doubt, _ := top.Doubt(now); doubt != "" || !top.State.Valid() || top.State == store.StateIdle {
		return assets.IconUnsure
	}
	return string(top.State)
}

// SummaryLine counts the sessions per state, attention first:
// "1 waiting · 2 working".
func SummaryLine(sessions []view.Session) string {
	var parts []string
	for _, p := range view.Summary(sessions, 0) {
		parts = append(parts, p.Text)
	}
	return strings.Join(parts, " · ")
}

// stateText is the state as the menu says it.
func stateText(s store.State) string {
	if view.IsShown(s) {
		return string(s)
	}
	return "state unknown"
}

// detailOf is what the session works on or waits for.
func detailOf(s view.Session) string {
	switch s.State {
	case store.StateWaiting:
		return text.Line(s.WaitingFor, 60)
	case store.StateWorking:
		if s.WorkingOn != "" {
			return `"` + text.Line(s.WorkingOn, 60) + `"`
		}
	}
	return ""
}

// activityLine is what the session has done, on a line of its own; "" for
// nothing known.
func activityLine(f *activity.Facts) string {
	if f == nil {
		return ""
	}
	return text.Line(f.Summary(), 0)
}

func rowTooltip(s view.Session) string {
	lines := []string{text.Line(cmp.Or(s.CWD, s.ProjectDir), 0)}
	if s.WorkingOn != "" {
		lines = append(lines, "Prompt: "+text.Line(s.WorkingOn, 200))
	}
	if ctx := s.ContextLong(); ctx != "" {
		lines = append(lines, "C"+ctx[1:])
	}
	switch {
	case s.Host != "":
		lines[0] = text.Line(s.Host, 40) + ":" + lines[0]
		if s.TmuxPane != "" {
			lines = append(lines, "Click to attach to its tmux pane over ssh, in a new terminal")
		}
	case s.TmuxPane != "":
		lines = append(lines, "Click to switch to tmux pane "+s.TmuxPane)
	case s.PID != 0 || s.Terminal != terminal.Terminal{}:
		lines = append(lines, "Click to bring its terminal forward")
	default:
		lines = append(lines, "Click to open the project folder")
	}
	return strings.Join(lines, "\n")
}

// agentsTitle heads the tooltip: "Claude Code" while every session is
// Claude's, "Coding agents" once another agent's is among them (each
// row then names its agent).
func agentsTitle(sessions []view.Session) string {
	for _, s := range sessions {
		if s.Agent != "" && s.Agent != resolver.AgentClaude {
			return "Coding agents"
		}
	}
	return "Claude Code"
}

// labelNames names each session by its one name (view.Session.Name: "api
// · auth refactor"); sessions with the same label get " (2)", " (3)"… in
// menu order.
func labelNames(sorted []view.Session) []string {
	names := make([]string, len(sorted))
	seen := map[string]int{}
	for i := range sorted {
		name := sorted[i].Name()
		seen[name]++
		if n := seen[name]; n > 1 {
			name = fmt.Sprintf("%s (%d)", name, n)
		}
		names[i] = name
	}
	return names
}

// Earliest is the earlier of two moments, zero meaning never: how the tray
// combines the deadlines of its parts into its one timer.
func Earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}
