package cli

import (
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/autostart"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/doctor"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/resolver"
)

func runDoctor(env *Env, args []string) error {
	fs := newFlagSet(env, "doctor", "doctor [--project DIR]\n\n"+
		"Checks each link from Claude Code to the tray icon and says how to fix\n"+
		"what is broken: ✓ works, ! worth knowing, ✗ broken. Exits 1 when\n"+
		"something is broken.\n")
	project := fs.String("project", "", "also read the project settings in `dir`/.claude (default: the current directory)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	dir := *project
	if dir == "" {
		dir, _ = os.Getwd()
	}
	denv := &doctor.Env{
		Layout:       env.Layout(),
		Now:          env.Now(),
		UserSettings: userSettingsPath(env),
		ConfigPath:   config.DefaultPath(env.Home, env.Getenv),
		Getenv:       env.Getenv,
		Alive:        proc.Alive,
	}
	followConfigDirs(env, denv)
	if dir != "" {
		for _, name := range []string{"settings.json", "settings.local.json"} {
			p := filepath.Join(absPath(env, dir), ".claude", name)
			if p != denv.UserSettings {
				denv.ProjectSettings = append(denv.ProjectSettings, p)
			}
		}
	}
	target := autostart.Default(env.Home, env.Getenv)
	denv.Autostart = &target
	if exe, err := os.Executable(); err == nil {
		denv.Executable = exe
	}
	denv.Remotes, denv.RemoteSessions = fetchRemotes(env, 10*time.Second)
	bus, closeBus, err := doctor.SessionBus(env.Getenv)
	defer closeBus()
	denv.Bus, denv.BusErr = bus, err
	denv.Attention = attentionOf(env)

	findings := doctor.Run(denv)
	if err := doctor.Write(env.Stdout, findings, env.Home); err != nil {
		return err
	}
	if doctor.Failed(findings) {
		return &ExitError{Code: 1}
	}
	return nil
}

// followConfigDirs points doctor at every config directory hud follows
// (their user settings and sessions/) and at the projects of the live
// sessions, whose settings may be where the hooks are.
func followConfigDirs(env *Env, denv *doctor.Env) {
	l := env.Layout()
	for _, p := range install.UserSettingsPaths(l) {
		if p != denv.UserSettings {
			denv.ConfigDirSettings = append(denv.ConfigDirSettings, p)
		}
	}
	snap, _ := resolver.LoadSnapshot(l, proc.StartTicks, registry.Logs)
	denv.LockDirs = snap.LockDirs
	for _, s := range resolver.ResolveAll(snap, env.Now(), proc.Alive) {
		if s.Record != nil && !slices.Contains(denv.SessionProjects, s.Record.Project()) {
			denv.SessionProjects = append(denv.SessionProjects, s.Record.Project())
		}
	}
}
