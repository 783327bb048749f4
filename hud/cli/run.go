package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/capacitor-hud/hud/hud/app"
	"github.com/capacitor-hud/hud/hud/config"
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
	logf := log.New(env.Stderr, "hud: ", log.LstdFlags).Printf
	err := mainLoop(env, app.Setup{Logf: logf, Show: env.Tray, InstallHooks: installFromMenu(env, logf)})
	if errors.Is(err, app.ErrAlreadyRunning) {
		fmt.Fprintf(env.Stderr, "hud: %v; its icon is already in the tray.\n", err)
		return nil
	}
	return err
}

// mainLoop runs the tray's loop (app.Main) with s, filled in from env,
// until Quit, SIGINT or SIGTERM; an error the app gives a hint keeps it.
func mainLoop(env *Env, s app.Setup) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s.Layout, s.ConfigPath = env.Layout(), config.DefaultPath(env.Home, env.Getenv)
	s.Getenv, s.Now = env.Getenv, env.Now
	err := app.Main(ctx, s)
	if hinted := (*app.Error)(nil); errors.As(err, &hinted) {
		return withHint(hinted.Err, hinted.Hint)
	}
	return err
}

// installFromMenu is the tray's offer to install the hooks: exactly `hud
// install` without flags (the same settings file, the same remembered
// config directory), with what it prints going to the tray's log.
func installFromMenu(env *Env, logf func(string, ...any)) func() error {
	return func() error {
		var out bytes.Buffer
		quiet := *env
		quiet.Stdout, quiet.Stderr = &out, &out
		err := runInstall(&quiet, nil)
		for line := range strings.Lines(out.String()) {
			logf("install: %s", strings.TrimSpace(line))
		}
		return err
	}
}
