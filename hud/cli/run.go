package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/app"
	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/watch"
	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/lockholder"
	"github.com/capacitor-hud/hud/resolver"
)

const runUsage = `run

Starts the tray: an icon in the menu bar (macOS) or the system tray (Linux)
that shows what your Claude Code sessions are doing, a menu listing them
(click one to bring it forward), and notifications when one needs you.
Settings: ~/.config/hud/config.toml (created with comments on first run).
Only one tray runs per user: a second 'hud' says so and exits 0.

Exit status: 0 after Quit (or when a tray already runs); 1 when it cannot
start, e.g. on Linux without a D-Bus session bus (no desktop session).
Without a tray host it keeps running and still sends notifications.`

func runTray(env *Env, args []string) error {
	fs := newFlagSet(env, "run", runUsage)
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("run takes no arguments")
	}
	if env.Tray == nil {
		return withHint(errors.New("this hud was built without the tray"), noTrayHint())
	}
	logger := log.New(env.Stderr, "hud: ", log.LstdFlags)
	logf := logger.Printf
	layout := env.Layout()

	release, err := app.AcquireInstance(layout.TrayLockPath())
	if errors.Is(err, app.ErrAlreadyRunning) {
		fmt.Fprintf(env.Stderr, "hud: %v; its icon is already in the tray.\n", err)
		return nil
	}
	if err != nil {
		return withHint(err, "check the permissions of "+layout.StoreDir())
	}
	defer release()

	settings := newTraySettings(env, logf)
	// The first read names every config directory to follow; the watcher
	// starts on them all before the app reads again, so nothing between
	// the two is missed.
	first, _ := resolver.LoadSnapshot(layout, claudeProcessStart)
	watcher, err := watch.New(watch.Options{Layout: layout, Files: shownFiles(layout), LockDirs: first.LockDirs, ConfigPath: settings.path, Logf: logf})
	if err != nil {
		return withHint(fmt.Errorf("watching for changes: %w", err),
			"check the permissions of "+layout.StoreDir()+" and "+layout.LockDir())
	}
	defer watcher.Close()

	icon, err := assets.Icon(assets.IconWaiting, 1, false)
	if err != nil {
		return err
	}
	sender, err := notify.NewDesktop(icon, settings.cfg.Notifications.Sound)
	if err != nil {
		return err
	}
	notifications := app.NewNotifications(notify.NewTracker(settings.cfg.Notifications), sender, logf)
	defer notifications.Close()
	section := app.BreaksAndWork{
		Breaks: breaks.NewSection(breaks.NewScheduler(layout, breaks.FromConfig(settings.cfg.Breaks), logf), notifications.Say, logf),
		Work:   worksession.NewSection(worksession.FromConfig(settings.cfg.WorkSession), notifications.Say, logf),
	}
	hooks := &hookCheck{paths: func() []string { return userSettingsPaths(layout) }}
	focus := app.Focuser{Run: app.ExecRunner, Open: app.OpenPath}
	a := app.New(app.Options{
		Layout:       layout,
		Now:          env.Now,
		Logf:         logf,
		Changes:      watcher.Changes(),
		Load:         func() (resolver.Snapshot, error) { return loadFollowing(layout, watcher) },
		Alive:        lockholder.Alive,
		Sweep:        func() (int, error) { return sweepAll(layout, first.LockDirs) },
		HooksProblem: hooks.problem,
		InstallHooks: func() error {
			hook, err := locateHook(env, "")
			if err != nil {
				return err
			}
			client, _ := install.DetectClient(context.Background(), env.Getenv("PATH"))
			_, err = install.Install(install.Options{SettingsPath: userSettingsPath(env), HookPath: hook, Client: client})
			return err
		},
		Config:   settings.reload,
		Notifier: notifications,
		Section:  section,
		Activity: func(id string) string {
			s, err := activity.Load(layout, id)
			if err != nil {
				return ""
			}
			return activity.FactsOf(s).Summary()
		},
		Focus: focus.Focus,
		Open:  app.OpenPath,
	})

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = env.Tray(func(ui app.UI) {
		if err := a.Run(ctx, ui); err != nil {
			logf("%v", err)
		}
	})
	if errors.Is(err, app.ErrNoSessionBus) {
		return withHint(fmt.Errorf("cannot show the tray or notifications: %w", err),
			"start hud inside your desktop session (DBUS_SESSION_BUS_ADDRESS must be set), or run 'hud watch' in a terminal")
	}
	return err
}

// loadFollowing reads the snapshot and makes the watcher follow the
// sessions/ of every config directory it names; when that watches a
// directory it did not before (a record names a new config directory),
// it reads again, so what changed there before the watch began is seen.
func loadFollowing(layout resolver.Layout, w *watch.Watcher) (resolver.Snapshot, error) {
	snap, err := resolver.LoadSnapshot(layout, claudeProcessStart)
	if w.Follow(snap.LockDirs...) {
		snap, err = resolver.LoadSnapshot(layout, claudeProcessStart)
	}
	w.FollowAgentLogs(snap.AgentLogDirs...)
	return snap, err
}

// sweepAll removes the stale locks of every followed config directory.
func sweepAll(layout resolver.Layout, lockDirs []string) (int, error) {
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

// traySettings loads the settings file, creating it with comments on the
// first run, and tells the person about each problem in it once.
type traySettings struct {
	env  *Env
	logf func(string, ...any)
	path string
	cfg  config.Config
	told []string
}

func newTraySettings(env *Env, logf func(string, ...any)) *traySettings {
	s := &traySettings{env: env, logf: logf, path: config.DefaultPath(env.Home, env.Getenv)}
	if created, err := config.EnsureFile(s.path); err != nil {
		logf("%v", err)
	} else if created {
		logf("created the settings file %s", s.path)
	}
	s.load()
	return s
}

func (s *traySettings) load() {
	cfg, problems := config.Load(s.path, s.env.Getenv)
	var text []string
	for _, p := range problems {
		text = append(text, p.String())
	}
	if !slices.Equal(text, s.told) {
		for _, t := range text {
			s.logf("settings: %s", t)
		}
		s.told = text
	}
	s.cfg = cfg
}

// reload is app.Options.Config: called from the loop at start and when
// the file changes.
func (s *traySettings) reload() config.Config {
	s.load()
	return s.cfg
}
