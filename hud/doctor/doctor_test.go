package doctor

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/autostart"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/internal/paths"
)

// fakeBus owns the names in owned.
type fakeBus struct {
	owned map[string]bool
	err   error
}

func (b fakeBus) NameHasOwner(name string) (bool, error) { return b.owned[name], b.err }

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func write(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, mode) // WriteFile's mode is cut by the umask
}

func newEnv(t *testing.T) *Env {
	home := t.TempDir()
	l := paths.Layout{Home: home}
	return &Env{
		Layout:       l,
		Now:          now,
		UserSettings: filepath.Join(l.ClaudeDir(), "settings.json"),
		ConfigPath:   filepath.Join(home, ".config", "hud", "config.toml"),
		Getenv:       func(string) string { return "" },
		Bus: fakeBus{owned: map[string]bool{
			watcherName: true, notificationsName: true,
		}},
		Alive: func(pid int, started int64) bool { return pid == 100 },
	}
}

// healthy makes env a working setup: hooks installed and runnable, a
// store, a live lock, a recent event.
func healthy(t *testing.T, env *Env) {
	hook := filepath.Join(env.Layout.Home, "bin", "hud-hook")
	write(t, hook, "#!/bin/sh\n", 0o755)
	if _, err := install.Install(install.Options{SettingsPath: env.UserSettings, HookPath: hook}); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(env.Layout.StoreDir(), 0o700)
	write(t, env.Layout.StorePath(), `{"version":3,"sessions":{}}`, 0o600)
	lock := filepath.Join(env.Layout.LockDir(), paths.LockName("/p", 100))
	write(t, filepath.Join(lock, "meta.json"), `{"pid":100,"path":"/p","created":1,"proc_started":1}`, 0o600)
	write(t, env.Layout.DebugLogPath(), "2026-11-22T09:58:00.000Z abc Stop working→ready (0.4ms)\n", 0o600)
	env.Executable = filepath.Join(env.Layout.Home, "bin", "hud")
	env.Autostart = &autostart.Target{Path: filepath.Join(env.Layout.Home, ".config", "autostart", "hud.desktop"), Render: autostart.RenderDesktop}
	if _, err := env.Autostart.Enable(env.Executable); err != nil {
		t.Fatal(err)
	}
}

// holdTrayLock plays a running tray: an exclusive flock on its lock file
// until the test ends.
func holdTrayLock(t *testing.T, env *Env) {
	path := env.Layout.TrayLockPath()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	f.WriteString("4242\n")
}

func run(env *Env) (string, bool) {
	fs := Run(env)
	var b bytes.Buffer
	Write(&b, fs, env.Layout.Home)
	return b.String(), Failed(fs)
}

func TestHealthySetup(t *testing.T) {
	env := newEnv(t)
	healthy(t, env)
	holdTrayLock(t, env)
	out, failed := run(env)
	if failed || strings.Contains(out, "✗") || strings.Contains(out, "\n!") || strings.HasPrefix(out, "!") {
		t.Fatalf("healthy setup reported problems:\n%s", out)
	}
	for _, want := range []string{
		"✓ hooks          installed in ~/.claude/settings.json for 18 events (~/bin/hud-hook)",
		"✓ store          ~/.capacitor/sessions.json: 0 session(s)",
		"✓ locks          1 live lock(s)",
		"✓ last event     2m ago: Stop working→ready (0.4ms)",
		"✓ tray host",
		"✓ notifications",
		"✓ tray           running (pid 4242)",
		"✓ autostart      on (~/.config/autostart/hud.desktop)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// TestBrokenSetup breaks every link at once; each must be named, with a
// fix, and the whole must fail.
func TestBrokenSetup(t *testing.T) {
	env := newEnv(t)
	healthy(t, env)
	l := env.Layout
	// The hook binary is gone and hooks are disabled in the project.
	os.Remove(filepath.Join(l.Home, "bin", "hud-hook"))
	project := filepath.Join(t.TempDir(), ".claude", "settings.json")
	write(t, project, `{"disableAllHooks": true}`, 0o644)
	env.ProjectSettings = []string{project}
	write(t, l.StorePath(), `{"version":3,"sessions":`, 0o644)
	stale := filepath.Join(l.LockDir(), paths.LockName("/q", 200))
	write(t, filepath.Join(stale, "meta.json"), `{"pid":200,"path":"/q","created":1,"proc_started":1}`, 0o600)
	write(t, l.DebugLogPath(), "2026-11-22T09:00:00.000Z abc Stop working→ready (0.4ms)\n"+
		"2026-11-22T09:30:00.000Z - error: reading store: permission denied\n", 0o666)
	write(t, env.ConfigPath, "[breaks]\nenabled = maybe\n", 0o600)
	env.Bus = fakeBus{owned: map[string]bool{}}

	out, failed := run(env)
	t.Logf("\n%s", out)
	if !failed {
		t.Errorf("broken setup did not fail:\n%s", out)
	}
	for _, want := range []string{
		"✗ hooks          ~/.claude/settings.json runs ~/bin/hud-hook, which is missing",
		"fix: run 'hud install'",
		`✗ hooks enabled  ` + project + ` sets "disableAllHooks": true`,
		"✗ store", "corrupt store",
		"! locks          1 live, 1 stale lock(s)",
		"✗ last event     the hook's last entry, 30m ago, is an error: reading store: permission denied",
		"✗ tray host      nothing on the session bus shows tray icons",
		"AppIndicator and KStatusNotifierItem Support",
		"! notifications  no notification daemon",
		"✗ config", "config.toml:2",
		"✗ permissions    ~/.claude/hud-hook-debug.log is 666: others can write it",
		"! permissions    ~/.capacitor/sessions.json is 644: others can read it",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestNoHooksNoBus(t *testing.T) {
	env := newEnv(t)
	env.Bus, env.BusErr = nil, errors.New("DBUS_SESSION_BUS_ADDRESS is not set")
	out, failed := run(env)
	for _, want := range []string{
		"✗ hooks          hud-hook is not in ~/.claude/settings.json",
		"! store          no store yet",
		"! last event     the hook has not run yet",
		"✗ tray host      no D-Bus session bus",
		"✓ permissions    none of the HUD's files exist yet",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if !failed || strings.Contains(out, "notifications") {
		t.Errorf("want failure and no notifications line without a bus:\n%s", out)
	}
}

func TestInvalidSettings(t *testing.T) {
	env := newEnv(t)
	write(t, env.UserSettings, "{\n  \"a\": 1,\n}\n", 0o644)
	out, _ := run(env)
	if !strings.Contains(out, "settings.json:3:1: trailing comma") || !strings.Contains(out, "fix: remove the comma") {
		t.Errorf("invalid settings not explained:\n%s", out)
	}
}

func TestMacOSSkipsBusChecks(t *testing.T) {
	env := newEnv(t)
	healthy(t, env)
	env.Bus = nil
	out, failed := run(env)
	if failed || strings.Contains(out, "tray host") || strings.Contains(out, "notifications") {
		t.Errorf("without a bus to ask, the desktop checks must be skipped:\n%s", out)
	}
}

func TestParseLogLine(t *testing.T) {
	l, ok := ParseLogLine("2026-11-22T09:58:00.123Z 3f2a-1 PreToolUse working→working (0.3ms)")
	if !ok || l.Session != "3f2a-1" || l.Message != "PreToolUse working→working (0.3ms)" || l.Time.Nanosecond() != 123e6 {
		t.Errorf("ParseLogLine = %+v, %v", l, ok)
	}
	for _, bad := range []string{"", "\tgoroutine 1 [running]:", "yesterday abc Stop"} {
		if _, ok := ParseLogLine(bad); ok {
			t.Errorf("ParseLogLine(%q) accepted", bad)
		}
	}
}

func TestEarlierErrorsAreWarnings(t *testing.T) {
	env := newEnv(t)
	healthy(t, env)
	write(t, env.Layout.DebugLogPath(),
		"2026-11-20T09:00:00.000Z - error: too old to mention\n"+
			"2026-11-22T09:50:00.000Z abc error: activity abc: git status: exit status 128\n"+
			"2026-11-22T09:58:00.000Z abc Stop working→ready (0.4ms)\n", 0o600)
	out, failed := run(env)
	if failed {
		t.Errorf("earlier errors made doctor fail:\n%s", out)
	}
	for _, want := range []string{
		"✓ last event     2m ago: Stop working→ready (0.4ms)",
		"! last event     1 error(s) logged in the last day, the latest 10m ago: activity abc: git status: exit status 128",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestTrayNotRunningAndStaleAutostart(t *testing.T) {
	env := newEnv(t)
	healthy(t, env)
	out, failed := run(env)
	if failed || !strings.Contains(out, "! tray           the tray is not running") {
		t.Errorf("no tray: want a warning and no failure:\n%s", out)
	}
	// The lock file of a tray that exited: nobody holds it.
	write(t, env.Layout.TrayLockPath(), "1\n", 0o600)
	if out, _ := run(env); !strings.Contains(out, "! tray           the tray is not running") {
		t.Errorf("an unlocked lock file means no tray:\n%s", out)
	}
	env.Executable = "/elsewhere/hud"
	if out, _ := run(env); !strings.Contains(out, "! autostart      ~/.config/autostart/hud.desktop starts another hud than /elsewhere/hud") {
		t.Errorf("stale autostart not noticed:\n%s", out)
	}
	env.Autostart.Disable()
	if out, _ := run(env); !strings.Contains(out, "✓ autostart      off ('hud autostart on' starts the tray at login)") {
		t.Errorf("autostart off:\n%s", out)
	}
}

func TestHooksOnlyInProject(t *testing.T) {
	env := newEnv(t)
	hook := filepath.Join(env.Layout.Home, "bin", "hud-hook")
	write(t, hook, "#!/bin/sh\n", 0o755)
	project := filepath.Join(t.TempDir(), ".claude", "settings.json")
	if _, err := install.Install(install.Options{SettingsPath: project, HookPath: hook}); err != nil {
		t.Fatal(err)
	}
	env.ProjectSettings = []string{project}
	out, _ := run(env)
	if !strings.Contains(out, "! hooks          installed only in "+project) {
		t.Errorf("project-only hooks not flagged:\n%s", out)
	}
}
