package app

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/resolver"
)

// detailIndent sets a session's activity line off from the session rows,
// and its dialog's subject and choices: the rows under a session.
const detailIndent = "      "

// under reports whether r is a row under the session row above it.
func under(r Row) bool { return strings.HasPrefix(r.Label, detailIndent) }

// menuOpenWindow is how long after the menu opened its "since" labels
// tick over on time. Outside it they are redrawn at most once a minute:
// nobody sees a closed menu, and ten sessions each ticking on their own
// second would wake the idle tray every few seconds.
const menuOpenWindow = time.Minute

// shown is what was last sent to the UI.
type shown struct {
	icon    string
	title   string
	tooltip string
	menu    *Menu
}

// render resolves the snapshot at the current time, draws the result and
// sets the timer for the next change by itself.
func (a *App) render() {
	now := a.opts.Now()
	snap, settings := a.snap, a.settings

	sessions := resolver.ResolveAll(snap, now, a.opts.Alive)
	views := view.All(sessions)
	if a.opts.Activity != nil {
		for i := range views {
			if id := views[i].SessionID; id != "" {
				views[i].Activity = a.opts.Activity(id)
			}
		}
	}
	a.opts.Answers.Attach(views)
	remotes, remoteSessions := a.remoteState()
	views = append(views, remoteSessions...)
	hooksProblem := ""
	if a.opts.HooksProblem != nil {
		hooksProblem = a.opts.HooksProblem()
	}
	accounts := view.Accounts(a.opts.Layout.Home, snap.Accounts)
	picture := present.Present(present.Input{
		Sessions:     views,
		Now:          now,
		HooksProblem: hooksProblem,
		ShowTitle:    settings.ShowTitle,
		MaxRows:      settings.MaxRows,
		Accounts:     accounts,
	})
	if a.opts.Runway != nil {
		a.opts.Runway.Update(now, views, accounts)
	}
	a.opts.Memory.Observe(now, views, accounts)
	next := present.Earliest(picture.NextChange, resolver.NextChange(sessions, now))
	menuOpen := now.Before(a.menuOpenUntil)
	nextLabel := picture.NextLabel
	if a.opts.Notifier != nil {
		next = present.Earliest(next, a.opts.Notifier.Update(now, views))
	}
	if a.opts.Section != nil {
		next = present.Earliest(next, a.opts.Section.Update(now, sessions))
	}
	menu, focus := menuOf(picture)
	menu.Sessions = withChoices(menu.Sessions, views)
	menu.Sessions = append(menu.Sessions, remoteRows(remotes, now)...)
	if a.opts.Section != nil {
		rows, rowsNext := a.opts.Section.Rows(now)
		menu.Section = rows
		nextLabel = present.Earliest(nextLabel, rowsNext)
	}
	menu.Section = append(menu.Section, a.opts.Answers.toggleRow()...)
	today := a.opts.Memory.Today(now, a.menuOpened)
	a.menuOpened = false
	a.publish(now, views, picture, menu.Section, today)
	if today != "" {
		menu.Section = append([]Row{{Label: today, Disabled: true}}, menu.Section...)
	}
	menu.Section = fitSection(accountRows(picture.Accounts), menu.Section, SectionRows)
	var dropped int
	menu.Sessions, dropped = fitSessions(menu.Sessions, SessionRows)
	if hidden := picture.Hidden + dropped; hidden > 0 {
		menu.More = present.MoreLine(hidden)
	}
	if !nextLabel.IsZero() {
		if !menuOpen {
			nextLabel = nextWholeMinute(nextLabel)
		}
		next = present.Earliest(next, nextLabel)
	}

	a.focus = focus
	a.draw(picture, menu)
	a.schedule(now, next)
}

// menuOf lays v out as the menu, and says what each session row
// brings forward when clicked. The section and the More line, which also counts
// what did not fit the pool (fitSessions), are left to the caller.
func menuOf(v present.View) (Menu, map[string]view.Place) {
	menu := Menu{Status: v.Status}
	if v.HooksProblem != "" {
		menu.Hooks = v.HooksProblem + " — click to install"
	}
	focus := make(map[string]view.Place, len(v.Rows))
	for _, r := range v.Rows {
		key := sessionPrefix + r.Key
		menu.Sessions = append(menu.Sessions, Row{Key: key, Label: r.Label, Tooltip: r.Tooltip})
		if r.Detail != "" {
			// A line of its own under the session: menus have no
			// second line, and the label is long enough already.
			menu.Sessions = append(menu.Sessions, Row{Label: detailIndent + r.Detail, Disabled: true})
		}
		focus[key] = r.Focus
	}
	return menu, focus
}

// accountRows are the accounts' usage lines, which cannot be clicked.
func accountRows(lines []string) []Row {
	rows := make([]Row, len(lines))
	for i, l := range lines {
		rows[i] = Row{Label: l, Disabled: true}
	}
	return rows
}

// draw sends the UI what changed since the last draw. Each setter makes
// the tray emit D-Bus signals the panel acts on, so an unchanged label is
// not sent again (the idle tray must cost nothing).
func (a *App) draw(view present.View, menu Menu) {
	iconKey := fmt.Sprintf("%s/%d", view.Icon, view.Count)
	if iconKey != a.shown.icon {
		png, err := assets.Icon(view.Icon, view.Count, false)
		if err != nil {
			a.opts.Logf("%v", err)
		}
		tmpl, err := assets.Icon(view.Icon, view.Count, true)
		if err != nil {
			a.opts.Logf("%v", err)
		}
		if png != nil {
			a.ui.SetIcon(png, tmpl)
			a.shown.icon = iconKey
		}
	}
	if view.Title != a.shown.title || a.shown.menu == nil {
		a.ui.SetTitle(view.Title)
		a.shown.title = view.Title
	}
	if view.Tooltip != a.shown.tooltip {
		a.ui.SetTooltip(view.Tooltip)
		a.shown.tooltip = view.Tooltip
	}
	if a.shown.menu == nil || !menu.equal(*a.shown.menu) {
		a.ui.SetMenu(menu)
		a.shown.menu = &menu
	}
}

func (a *App) schedule(now, next time.Time) {
	a.timer.Stop()
	if next.IsZero() {
		return
	}
	d := next.Sub(now)
	if d < time.Millisecond {
		d = time.Millisecond
	}
	a.timer.Reset(d)
}

func (m Menu) equal(o Menu) bool {
	return m.Status == o.Status && m.Hooks == o.Hooks && m.More == o.More &&
		slices.Equal(m.Sessions, o.Sessions) && slices.Equal(m.Section, o.Section)
}

// nextWholeMinute rounds t up to a whole minute of the clock, so every
// session's label lands on the same redraw.
func nextWholeMinute(t time.Time) time.Time {
	if m := t.Truncate(time.Minute); !m.Equal(t) {
		return m.Add(time.Minute)
	}
	return t
}
