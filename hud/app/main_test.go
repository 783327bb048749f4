package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// Main wires the real parts (lock, watcher, settings file, hooks check)
// around the loop and shows it through Show; a second tray is refused
// while the first runs, and clicks reach the caller's InstallHooks.
func TestMainRunsTheTray(t *testing.T) {
	home := t.TempDir()
	layout := paths.Layout{Home: home}
	configPath := filepath.Join(home, ".config", "hud", "config.toml")
	installs := 0
	setup := Setup{
		Layout:       layout,
		ConfigPath:   configPath,
		Getenv:       func(string) string { return "" },
		Logf:         t.Logf,
		InstallHooks: func() error { installs++; return nil },
	}
	var menu Menu
	var second error
	setup.Show = func(loop func(UI)) error {
		ui := newFakeUI()
		done := make(chan struct{})
		go func() { loop(ui); close(done) }()
		deadline := time.Now().Add(10 * time.Second)
		for {
			ui.mu.Lock()
			drawn := ui.calls["menu"] > 0
			menu = ui.menu
			ui.mu.Unlock()
			if drawn {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the loop drew no menu within 10s")
			}
			time.Sleep(10 * time.Millisecond)
		}
		second = Main(context.Background(), Setup{Layout: layout, ConfigPath: configPath, Logf: t.Logf,
			Show: func(func(UI)) error { t.Error("a second tray showed itself"); return nil }})
		ui.events <- Event{Kind: Clicked, Key: KeyInstallHooks}
		ui.events <- Event{Kind: Clicked, Key: KeyQuit}
		<-done
		return nil
	}
	if err := Main(context.Background(), setup); err != nil {
		t.Fatalf("Main: %v", err)
	}
	if menu.Hooks != "Hooks not installed — click to install" || !strings.Contains(menu.Status, "No Claude Code sessions") {
		t.Errorf("first menu: hooks %q, status %q; want the install offer and no sessions", menu.Hooks, menu.Status)
	}
	if !errors.Is(second, ErrAlreadyRunning) {
		t.Errorf("a second Main while the first runs: %v, want ErrAlreadyRunning", second)
	}
	if installs != 1 {
		t.Errorf("InstallHooks ran %d times, want once (from the menu)", installs)
	}
	if _, err := os.Stat(configPath); err != nil {
		t.Errorf("the settings file was not created: %v", err)
	}
}

// Without a session bus nothing can show: Main says where to run hud
// instead.
func TestMainWithoutSessionBus(t *testing.T) {
	home := t.TempDir()
	err := Main(context.Background(), Setup{
		Layout:     paths.Layout{Home: home},
		ConfigPath: filepath.Join(home, "config.toml"),
		Logf:       t.Logf,
		Show:       func(func(UI)) error { return ErrNoSessionBus },
	})
	var hinted *Error
	if !errors.Is(err, ErrNoSessionBus) || !errors.As(err, &hinted) || !strings.Contains(hinted.Hint, "DBUS_SESSION_BUS_ADDRESS") {
		t.Errorf("Main = %v; want ErrNoSessionBus with a hint naming DBUS_SESSION_BUS_ADDRESS", err)
	}
}
