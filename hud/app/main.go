package app

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/attention"
	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/hud/web"
	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/lockholder"
	"github.com/capacitor-hud/hud/resolver"
)

// ShowFunc is the systray adapter (hud/tray.Run): it shows the tray icon,
// calls loop with its UI in a goroutine, and returns once loop has returned
// and the icon is gone. It must run on the main goroutine.
type ShowFunc func(loop func(ui UI)) error

// Setup is what the tray application takes from the command that starts
// it: where the files are, the clock, the log, and the two things only the
// caller can do (show a systray icon, run `hud install`).
type Setup struct {
	Layout paths.Layout
	// ConfigPath is the settings file (config.DefaultPath), created with
	// comments when missing; Getenv reads the variables that override it
	// (nil: none set).
	ConfigPath string
	Getenv     func(string) string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logf writes the tray's log; nil discards it.
	Logf func(format string, args ...any)
	// Show is the systray adapter; required.
	Show ShowFunc
	// InstallHooks does what `hud install` does without flags, for the
	// menu's offer when the hooks are missing; nil hides its action.
	InstallHooks func() error
	// Serve, when set, serves the page so (`hud serve`), whatever the
	// settings say.
	Serve *web.Config
}

// Error is a failure to start the tray, with what the person can do about
// it.
type Error struct {
	Err  error
	Hint string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Main runs the tray application until the person quits or ctx is done:
// it takes the one-tray-per-user lock, watches the files, wires the
// notifications, the break reminders and the work sessions into the loop,
// and shows it all through s.Show. When another tray runs it returns an
// error wrapping ErrAlreadyRunning at once.
func Main(ctx context.Context, s Setup) error {
	if s.Show == nil {
		return errors.New("app: Setup.Show is required")
	}
	s = s.withDefaults()
	layout := s.Layout
	release, err := AcquireInstance(layout.TrayLockPath())
	if err != nil {
		if errors.Is(err, ErrAlreadyRunning) {
			return err
		}
		return &Error{err, "check the permissions of " + layout.StoreDir()}
	}
	defer release()

	settings := openSettings(s.ConfigPath, s.Getenv, s.Logf)
	cfg := settings.Load()
	// The first read names every config directory to follow; the watcher
	// starts on them all before the loop reads again, so nothing between
	// the two is missed.
	first, _ := resolver.LoadSnapshot(layout, proc.StartTicks, registry.Logs)
	watcher, err := startWatcher(s, first.LockDirs)
	if err != nil {
		return err
	}
	defer watcher.Close()
	idle := attention.DesktopIdle(s.Getenv, "")
	answers, notifications, err := wireAttention(s, cfg.Notifications, idle)
	if err != nil {
		return err
	}
	defer answers.Close()
	defer notifications.Close()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	mem := memory(s, notifications.Say)
	mem.Configure(cfg.History)
	mem.Prime(s.clock()())
	answers.Heard = mem.Answered
	watchReturns(ctx, s, idle, mem)
	remotes, reloadRemotes, stopRemotes := followRemotes(ctx, s)
	defer stopRemotes()

	opts := loopOptions(s, cfg, watcher, first.LockDirs, notifications)
	opts.Config = settings.Load
	opts.Answers = answers
	opts.Memory = mem
	opts.Remotes, opts.ReloadRemotes = remotes, reloadRemotes
	if err := wirePage(ctx, s, cfg, &opts, notifications.Push); err != nil {
		return err
	}
	defer web.RemoveServerFile(layout.WebDir())
	return show(ctx, s, New(opts))
}

// wirePage serves the page when `hud serve` asks (s.Serve) or the
// settings do ([serve] enabled), until ctx ends; the away push then links
// to it.
func wirePage(ctx context.Context, s Setup, cfg config.Config, opts *Options, push *attention.Push) error {
	pc := s.Serve
	if pc == nil && cfg.Serve.Enabled {
		pc = &web.Config{Listen: cfg.Serve.Listen, CertFile: cfg.Serve.Cert, KeyFile: cfg.Serve.Key,
			PlaintextBeyondLoopback: cfg.Serve.PlaintextBeyondLoopback, URL: cfg.Serve.URL}
	}
	if pc == nil {
		return nil
	}
	srv, clicks, err := serve(ctx, s, *pc, opts.Answers)
	if err != nil {
		return &Error{fmt.Errorf("serving the page: %w", err), pageHint(err)}
	}
	opts.Page, opts.PageClicks = srv, clicks
	push.Link = func(key string) string { return srv.URL() + "/#s-" + url.PathEscape(key) }
	return nil
}

// withDefaults fills in the optional parts of s: a log that discards, an
// environment with nothing set.
func (s Setup) withDefaults() Setup {
	if s.Logf == nil {
		s.Logf = func(string, ...any) {}
	}
	if s.Getenv == nil {
		s.Getenv = func(string) string { return "" }
	}
	return s
}

// clock is s.Now, or time.Now.
func (s Setup) clock() func() time.Time {
	if s.Now == nil {
		return time.Now
	}
	return s.Now
}

// startWatcher watches the store, the lock directories of lockDirs, the
// settings file and the files beside the sessions that the tray shows.
func startWatcher(s Setup, lockDirs []string) (*watch.Watcher, error) {
	layout := s.Layout
	// The remotes file sits beside the settings file: an edit (hud remote
	// add) changes the machines followed without a restart.
	files := append(WatchedFiles(layout), config.RemotesPath(s.ConfigPath))
	watcher, err := watch.New(watch.Options{Layout: layout, Files: files, LockDirs: lockDirs,
		ConfigPath: s.ConfigPath, Logf: s.Logf})
	if err != nil {
		return nil, &Error{fmt.Errorf("watching for changes: %w", err),
			"check the permissions of " + layout.StoreDir() + " and " + layout.LockDir()}
	}
	return watcher, nil
}

// wireAttention builds what reaches the person: the desktop sender behind
// the answering tray and the attention gate, the notification rules and
// the away push. The caller closes both results.
func wireAttention(s Setup, cfg config.Notifications, idle attention.IdleSources) (*Answers, *Notifications, error) {
	icon, err := assets.Icon(assets.IconWaiting, 1, false)
	if err != nil {
		return nil, nil, err
	}
	sender, err := notify.NewDesktop(icon, cfg.Sound)
	if err != nil {
		return nil, nil, err
	}
	answers := NewAnswers(answer.SocketPath(s.Layout.Home), os.Getuid(), s.Logf, func(on bool) error {
		return config.SetBool(s.ConfigPath, "answer", "enabled", on)
	})
	gate := attentionGate(s, cfg, answers.HoldWaiting(sender), s.Logf)
	answers.Hold = gate.HoldBack
	notifications := NewNotifications(notify.NewTracker(cfg), gate, s.Logf)
	notifications.Push = awayPush(s, cfg, idle, s.Logf)
	return answers, notifications, nil
}

// loopOptions are the event loop's options but its settings, answers and
// remotes: what it reloads on a change, the notifier and the menu's
// sections, the hooks check, activity, a click's focus.
func loopOptions(s Setup, cfg config.Config, watcher *watch.Watcher, lockDirs []string, notifications *Notifications) Options {
	layout, logf := s.Layout, s.Logf
	hooks := &install.Checker{Paths: func() []string { return install.UserSettingsPaths(layout) }}
	return Options{
		Runway:       notifications.Runway(notify.NewRunway(cfg.Notifications)),
		Layout:       layout,
		Now:          s.Now,
		Logf:         logf,
		Changes:      watcher.Changes(),
		Load:         func() (resolver.Snapshot, error) { return loadFollowing(layout, watcher) },
		Alive:        proc.Alive,
		Sweep:        func() (int, error) { return sweepAll(layout, lockDirs) },
		HooksProblem: hooks.Problem,
		InstallHooks: s.InstallHooks,
		Notifier:     notifications,
		Section: BreaksAndWork{
			Breaks: breaks.NewSection(breaks.NewScheduler(layout, breaks.FromConfig(cfg.Breaks), logf), notifications.Say, logf),
			Work:   worksession.NewSection(cfg.WorkSession, notifications.Say, logf),
		},
		Activity: func(id string) *activity.Facts { return view.ActivityOf(layout, id) },
		Focus:    focuser(s, logf, notifications.Say).Start,
		Open:     OpenPath,
	}
}

// show runs a's loop in the tray until the person quits or ctx is done.
func show(ctx context.Context, s Setup, a *App) error {
	err := s.Show(func(ui UI) {
		if err := a.Run(ctx, ui); err != nil {
			s.Logf("%v", err)
		}
	})
	if errors.Is(err, ErrNoSessionBus) {
		return &Error{fmt.Errorf("cannot show the tray or notifications: %w", err),
			"start hud inside your desktop session (DBUS_SESSION_BUS_ADDRESS must be set), or run 'hud watch' in a terminal"}
	}
	return err
}

// WatchedFiles are the files besides the sessions whose changes the tray
// and `hud watch` show, each named by its owner: Claude Code's user
// settings (are the hooks installed?) and the break reminders' files.
func WatchedFiles(l paths.Layout) []string {
	return append([]string{l.WithConfig(l.DefaultConfigDir()).UserSettingsPath(), l.UserSettingsPath()},
		breaks.Files{Layout: l}.Shown()...)
}

// loadFollowing reads the snapshot and makes the watcher follow the
// sessions/ of every config directory it names; when that watches a
// directory it did not before (a record names a new config directory),
// it reads again, so what changed there before the watch began is seen.
func loadFollowing(layout paths.Layout, w *watch.Watcher) (resolver.Snapshot, error) {
	snap, err := resolver.LoadSnapshot(layout, proc.StartTicks, registry.Logs)
	if w.Follow(snap.LockDirs...) {
		snap, err = resolver.LoadSnapshot(layout, proc.StartTicks, registry.Logs)
	}
	w.FollowAgentLogs(snap.AgentLogDirs...)
	w.FollowStatusLines(layout.StatusLineDir())
	return snap, err
}

// sweepAll removes the stale locks of every followed config directory.
func sweepAll(layout paths.Layout, lockDirs []string) (int, error) {
	n := 0
	var errs []error
	for _, dir := range lockDirs {
		removed, err := lockholder.Sweep(layout.WithConfig(filepath.Dir(dir)))
		n += removed
		if err != nil {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}
