package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/resolver"
)

// Options is everything the App reads from or does to the world. Only
// Layout and Load are required; the rest have harmless defaults so tests
// set just what they look at.
type Options struct {
	Layout resolver.Layout
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logf writes the tray's log; nil discards it.
	Logf func(format string, args ...any)
	// Changes are the watcher's signals (hud/watch); nil never fires.
	Changes <-chan watch.Change
	// Load reads the store, the locks and Claude's session files.
	Load func() (resolver.Snapshot, error)
	// Alive tells live processes from dead or reused pids.
	Alive resolver.Liveness
	// Sweep removes stale lock directories, once at start; nil skips it.
	Sweep func() (int, error)
	// HooksProblem says what is wrong with the hooks in Claude Code's
	// settings ("Hooks not installed"), "" when they are in place. nil
	// means they are.
	HooksProblem func() string
	// InstallHooks runs `hud install` for the person who clicked the
	// hooks row; nil hides the offer's action.
	InstallHooks func() error
	// Settings returns the current settings; called at start and when the
	// watcher says the file changed. nil means DefaultSettings.
	Settings func() Settings
	// Notifier sends desktop notifications; nil sends none.
	Notifier Notifier
	// Focus brings a session forward (tmux pane, else its folder).
	Focus func(present.Focus) error
	// Open opens a file or folder with the desktop's default application.
	Open func(path string) error
	// Section fills the menu's section for other parts (break reminders).
	Section Section
	// Activity sums up what a session has done ("3/7 todos · 12 files");
	// nil or "" shows no activity line.
	Activity func(sessionID string) string
}

// detailIndent sets a session's activity line off from the session rows.
const detailIndent = "      "

// Settings are the parts of the settings file the loop itself uses.
type Settings struct {
	// ShowTitle shows the summary beside the icon (macOS).
	ShowTitle bool
	// MaxRows caps the session rows in the menu.
	MaxRows int
}

// DefaultSettings are used when Options.Settings is nil.
var DefaultSettings = Settings{ShowTitle: true, MaxRows: present.DefaultMaxRows}

// Notifier turns what the sessions do into desktop notifications.
type Notifier interface {
	// Update looks at the live sessions at now, sends what became due, and
	// returns when it next needs to look (a reminder), or the zero time.
	Update(now time.Time, sessions []resolver.Session) time.Time
	// Say sends a plain message, for news with no other place to go (no
	// tray on this desktop).
	Say(title, body string)
}

// Section is a block of menu rows another part of the HUD fills, such as
// the break reminders. Its methods are called from the loop only.
type Section interface {
	// Update looks at the live sessions at now (after every resolution),
	// acts on what became due, and returns when it must be called again
	// on time (zero: only when the sessions change).
	Update(now time.Time, sessions []resolver.Session) time.Time
	// Rows returns the rows to show at now, and when their text changes by
	// itself next (a countdown; zero: never). Like the sessions' labels,
	// that change is drawn on time only while the menu is open.
	Rows(now time.Time) (rows []Row, next time.Time)
	// Clicked handles a click on one of its rows.
	Clicked(key string, now time.Time)
	// Changed signals that Rows would answer differently; may be nil.
	Changed() <-chan struct{}
}

// App is the running tray application.
type App struct {
	opts Options

	mu       sync.Mutex // guards the fields below, read by View from tests
	ui       UI
	settings Settings
	snap     resolver.Snapshot
	view     present.View
	shown    shown // what the UI shows now, to skip unchanged updates
	focus    map[string]present.Focus
	timer    *time.Timer
	saidHost bool
	// menuOpenUntil is when the menu is taken to be closed again (the
	// host says when it opens a menu, not when it closes it).
	menuOpenUntil time.Time
}

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

// New returns an App; Run starts it.
func New(opts Options) *App {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	return &App{opts: opts, focus: map[string]present.Focus{}}
}

// Run draws on ui and reacts to changes until the person quits or ctx is
// done. It starts by sweeping stale locks and reading everything.
func (a *App) Run(ctx context.Context, ui UI) error {
	if a.opts.Load == nil {
		return errors.New("app: Options.Load is required")
	}
	a.mu.Lock()
	a.ui = ui
	a.timer = time.NewTimer(time.Hour)
	a.timer.Stop()
	a.mu.Unlock()
	defer a.timer.Stop()

	if a.opts.Sweep != nil {
		if n, err := a.opts.Sweep(); err != nil {
			a.opts.Logf("sweeping stale locks: %v", err)
		} else if n > 0 {
			a.opts.Logf("removed %d stale lock(s)", n)
		}
	}
	a.reloadSettings()
	a.reload()

	var sectionChanged <-chan struct{}
	if a.opts.Section != nil {
		sectionChanged = a.opts.Section.Changed()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ch, ok := <-a.opts.Changes:
			if !ok {
				a.opts.Logf("file watcher stopped; the tray no longer follows changes")
				a.opts.Changes = nil
				continue
			}
			if ch.Config || ch.Rescan {
				a.reloadSettings()
			}
			a.reload()
		case <-a.timer.C:
			// Something changes by itself now: a label, a fresh record's
			// expiry, a reminder. The files did not change; resolving the
			// snapshot we have again is enough.
			a.render()
		case <-sectionChanged:
			a.render()
		case ev := <-ui.Events():
			if a.handle(ev) {
				return nil
			}
		}
	}
}

// View returns the last computed view.
func (a *App) View() present.View {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.view
}

func (a *App) reloadSettings() {
	s := DefaultSettings
	if a.opts.Settings != nil {
		s = a.opts.Settings()
	}
	a.mu.Lock()
	a.settings = s
	a.mu.Unlock()
}

// reload reads the files again and redraws.
func (a *App) reload() {
	snap, err := a.opts.Load()
	if err != nil {
		// A corrupt store still comes with the locks; a vanished file is
		// transient. Show what could be read, keep the last good store.
		a.opts.Logf("reading state: %v", err)
		if snap.Store == nil || errors.Is(err, resolver.ErrCorruptStore) {
			a.mu.Lock()
			snap.Store = a.snap.Store
			a.mu.Unlock()
		}
	}
	a.mu.Lock()
	a.snap = snap
	a.mu.Unlock()
	a.render()
}

// render resolves the snapshot at the current time, draws the result and
// sets the timer for the next change by itself.
func (a *App) render() {
	now := a.opts.Now()
	a.mu.Lock()
	snap, settings := a.snap, a.settings
	a.mu.Unlock()

	sessions := resolver.ResolveAll(snap, now, a.opts.Alive)
	hooksProblem := ""
	if a.opts.HooksProblem != nil {
		hooksProblem = a.opts.HooksProblem()
	}
	view := present.Present(present.Input{
		Sessions:     toPresent(sessions, now, a.opts.Activity),
		Now:          now,
		HooksProblem: hooksProblem,
		ShowTitle:    settings.ShowTitle,
		MaxRows:      settings.MaxRows,
	})
	next := earliest(view.NextChange, nextSnapshotChange(snap, now))
	a.mu.Lock()
	menuOpen := now.Before(a.menuOpenUntil)
	a.mu.Unlock()
	nextLabel := view.NextLabel
	if a.opts.Notifier != nil {
		next = earliest(next, a.opts.Notifier.Update(now, sessions))
	}
	if a.opts.Section != nil {
		next = earliest(next, a.opts.Section.Update(now, sessions))
	}
	menu := Menu{Status: view.Status, More: view.More}
	if view.HooksProblem != "" {
		menu.Hooks = view.HooksProblem + " — click to install"
	}
	focus := map[string]present.Focus{}
	for _, r := range view.Rows {
		key := sessionPrefix + r.Key
		menu.Sessions = append(menu.Sessions, Row{Key: key, Label: r.Label, Tooltip: r.Tooltip})
		if r.Detail != "" {
			// A line of its own under the session: menus have no
			// second line, and the label is long enough already.
			menu.Sessions = append(menu.Sessions, Row{Label: detailIndent + r.Detail, Disabled: true})
		}
		focus[key] = r.Focus
	}
	if a.opts.Section != nil {
		rows, rowsNext := a.opts.Section.Rows(now)
		menu.Section = rows
		nextLabel = earliest(nextLabel, rowsNext)
	}
	if !nextLabel.IsZero() {
		if !menuOpen {
			nextLabel = nextWholeMinute(nextLabel)
		}
		next = earliest(next, nextLabel)
	}

	a.mu.Lock()
	a.view, a.focus = view, focus
	a.mu.Unlock()
	a.draw(view, menu)
	a.schedule(now, next)
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

// handle acts on a UI event; it reports whether the app should stop.
func (a *App) handle(ev Event) (quit bool) {
	switch ev.Kind {
	case MenuOpened:
		a.mu.Lock()
		a.menuOpenUntil = a.opts.Now().Add(menuOpenWindow)
		a.mu.Unlock()
		a.render()
	case NoTrayHost:
		a.sayNoTray(ev.Message)
	case Clicked:
		return a.clicked(ev.Key)
	}
	return false
}

func (a *App) clicked(key string) (quit bool) {
	switch {
	case key == KeyQuit:
		a.opts.Logf("quit from the menu")
		a.ui.Quit()
		return true
	case key == KeyDebugLog:
		if err := a.open(a.opts.Layout.DebugLogPath()); err != nil {
			a.opts.Logf("opening the debug log: %v", err)
		}
	case key == KeyInstallHooks:
		a.installHooks()
	case strings.HasPrefix(key, sessionPrefix):
		a.mu.Lock()
		f, ok := a.focus[key]
		a.mu.Unlock()
		if !ok {
			return false // the session went away while the menu was open
		}
		if a.opts.Focus != nil {
			if err := a.opts.Focus(f); err != nil {
				a.opts.Logf("bringing %s forward: %v", key, err)
			}
		}
	case a.opts.Section != nil:
		a.opts.Section.Clicked(key, a.opts.Now())
		a.render()
	}
	return false
}

func (a *App) open(path string) error {
	if a.opts.Open == nil {
		return errors.New("no way to open files here")
	}
	return a.opts.Open(path)
}

func (a *App) installHooks() {
	if a.opts.InstallHooks == nil {
		return
	}
	if err := a.opts.InstallHooks(); err != nil {
		a.opts.Logf("installing the hooks: %v", err)
		if a.opts.Notifier != nil {
			a.opts.Notifier.Say("Could not install the hooks", err.Error()+"\nRun 'hud install' in a terminal to see why.")
		}
	} else {
		a.opts.Logf("hooks installed from the menu")
	}
	a.render()
}

// sayNoTray tells the person once that no tray icon can show, and how to
// get one; notifications keep working.
func (a *App) sayNoTray(msg string) {
	if a.saidHost {
		return
	}
	a.saidHost = true
	a.opts.Logf("%s", msg)
	if a.opts.Notifier != nil {
		a.opts.Notifier.Say("hud: no system tray", msg)
	}
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

// earliest is the earlier of two moments, zero meaning never.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}
