package app

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// Options is everything the App reads from or does to the world. Only
// Layout and Load are required; the rest have harmless defaults so tests
// set just what they look at.
type Options struct {
	Layout paths.Layout
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
	// Config reads the settings file; called at start and when the
	// watcher says the file changed. The loop hands what it read to its
	// parts (Configure), so an edit takes effect without a restart. nil
	// means DefaultSettings and no change to the parts.
	Config func() config.Config
	// Notifier sends desktop notifications; nil sends none.
	Notifier Notifier
	// Focus starts bringing a session forward (its terminal, else its
	// folder). It must return at once: the work runs off the loop.
	Focus func(view.Place)
	// Open opens a file or folder with the desktop's default application.
	Open func(path string) error
	// Section fills the menu's section for other parts (break reminders).
	Section Section
	// Activity reads what a session has done (view.ActivityOf), shown as
	// a line under its row; nil, or a nil answer, shows none.
	Activity func(sessionID string) *activity.Facts
	// Answers serves the hooks' dialogs while answering is on and puts
	// their choices in the menu; nil leaves answering out.
	Answers *Answers
	// Remotes are the remote machines' streams (remote.Set); nil for
	// none. Their sessions show and notify beside the local ones.
	Remotes Remotes
	// ReloadRemotes rereads the list of machines, when a watched file
	// changed; nil never does.
	ReloadRemotes func()
	// Runway warns when a context window or a usage limit runs out
	// (Notifications.Runway); nil warns of neither.
	Runway Runway
	// Memory is the tray's part in the wait ledger, and the menu's Today
	// line; nil leaves both out.
	Memory *Memory
	// Page is the page (hud/web) each drawing is published to, and
	// PageClicks the keys of the section's rows clicked there; nil for
	// none.
	Page       Page
	PageClicks <-chan string
}

// Settings are the parts of the settings file the loop itself uses.
type Settings struct {
	// ShowTitle shows the summary beside the icon (macOS).
	ShowTitle bool
	// MaxRows caps the session rows in the menu.
	MaxRows int
}

// DefaultSettings are used when Options.Config is nil.
var DefaultSettings = Settings{ShowTitle: true, MaxRows: present.DefaultMaxRows}

// Notifier turns what the sessions do into desktop notifications.
type Notifier interface {
	// Update looks at the live sessions at now, sends what became due, and
	// returns when it next needs to look (a reminder), or the zero time.
	Update(now time.Time, sessions []view.Session) time.Time
	// Say sends a plain message, for news with no other place to go (no
	// tray on this desktop).
	Say(title, body string)
	// Configure applies the [notifications] table after a reload.
	Configure(config.Notifications)
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
	// Configure applies the settings after a reload.
	Configure(config.Config)
}

// App is the running tray application. Its state belongs to the
// goroutine that runs Run: every other part reaches it through the loop's
// channels (watcher changes, UI events, the section's signal), never by
// sharing a field, so it needs no lock.
type App struct {
	opts Options

	ui       UI
	settings Settings
	snap     resolver.Snapshot
	shown    shown // what the UI shows now, to skip unchanged updates
	focus    map[string]view.Place
	timer    *time.Timer
	saidHost bool
	// menuOpenUntil is when the menu is taken to be closed again (the
	// host says when it opens a menu, not when it closes it).
	menuOpenUntil time.Time
	// menuOpened is set when the menu opened since the last drawing: its
	// Today line is read afresh.
	menuOpened bool
}

// New returns an App; Run starts it.
func New(opts Options) *App {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	return &App{opts: opts, focus: map[string]view.Place{}}
}

// Run draws on ui and reacts to changes until the person quits or ctx is
// done. It starts by sweeping stale locks and reading everything.
func (a *App) Run(ctx context.Context, ui UI) error {
	if a.opts.Load == nil {
		return errors.New("app: Options.Load is required")
	}
	a.ui = ui
	a.timer = time.NewTimer(time.Hour)
	a.timer.Stop()
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

	var sectionChanged, remotesChanged <-chan struct{}
	if a.opts.Section != nil {
		sectionChanged = a.opts.Section.Changed()
	}
	if a.opts.Remotes != nil {
		remotesChanged = a.opts.Remotes.Changed()
	}
	memoryChanged := a.opts.Memory.Changed()
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
			if a.opts.ReloadRemotes != nil && (ch.Config || ch.Files || ch.Rescan) {
				a.opts.ReloadRemotes()
			}
			a.reload()
		case <-a.timer.C:
			// Something changes by itself now: a label, a fresh record's
			// expiry, a reminder. The files did not change; resolving the
			// snapshot we have again is enough.
			a.render()
		case <-sectionChanged:
			a.render()
		case <-a.opts.Answers.Changed():
			a.render()
		case <-remotesChanged:
			a.render()
		case <-memoryChanged:
			a.render()
		case key := <-a.opts.PageClicks:
			if a.clicked(key) {
				return nil
			}
		case ev := <-ui.Events():
			if a.handle(ev) {
				return nil
			}
		}
	}
}

// reloadSettings reads the settings file and hands each part its table.
func (a *App) reloadSettings() {
	if a.opts.Config == nil {
		a.settings = DefaultSettings
		return
	}
	cfg := a.opts.Config()
	a.settings = Settings{ShowTitle: cfg.Tray.ShowTitle, MaxRows: present.DefaultMaxRows}
	if a.opts.Notifier != nil {
		a.opts.Notifier.Configure(cfg.Notifications)
	}
	if a.opts.Section != nil {
		a.opts.Section.Configure(cfg)
	}
	if a.opts.Answers != nil {
		a.opts.Answers.Configure(cfg.Answer)
	}
	if a.opts.Runway != nil {
		a.opts.Runway.Configure(cfg.Notifications)
	}
	a.opts.Memory.Configure(cfg.History)
}

// reload reads the files again and redraws.
func (a *App) reload() {
	snap, err := a.opts.Load()
	if err != nil {
		// A corrupt or unreadable store still comes with the locks, and
		// with an empty store in its place (resolver.LoadSnapshot). Show
		// what could be read, with the last good store.
		a.opts.Logf("reading state: %v", err)
		if snap.Store == nil || storeUnreadable(err, a.opts.Layout.StorePath()) {
			snap.Store = a.snap.Store
		}
	}
	a.snap = snap
	a.render()
}

// handle acts on a UI event; it reports whether the app should stop.
func (a *App) handle(ev Event) (quit bool) {
	switch ev.Kind {
	case MenuOpened:
		a.menuOpenUntil = a.opts.Now().Add(menuOpenWindow)
		a.menuOpened = true
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
	case a.opts.Answers.Clicked(key):
		a.render()
	case strings.HasPrefix(key, sessionPrefix):
		f, ok := a.focus[key]
		if !ok {
			return false // the session went away while the menu was open
		}
		if a.opts.Focus != nil {
			a.opts.Focus(f)
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

// storeUnreadable reports whether err, from Options.Load, says the store
// itself could not be read or decoded (rather than the locks or Claude's
// session files).
func storeUnreadable(err error, storePath string) bool {
	if errors.Is(err, store.ErrCorrupt) {
		return true
	}
	errs := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	}
	for _, e := range errs {
		var pe *fs.PathError
		if errors.As(e, &pe) && pe.Path == storePath {
			return true
		}
	}
	return false
}
