// Command hud-hook is the Claude Code hook of the HUD: Claude runs it on
// every hook event with the event as JSON on stdin, and it records the
// session's state in ~/.capacitor/sessions.json. It prints nothing on
// stdout and exits 0 whatever happens. See package hook.
//
// `hud-hook --version` prints its version: Claude never passes arguments,
// so the check costs the hook one comparison.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/config/settings"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/hud/version"
	"github.com/capacitor-hud/hud/internal/paths"
)

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println(version.Get().Line("hud-hook"))
		return
	}
	env := hook.OSEnv()
	env.Sources = registry.Sources()
	env.Record = record
	os.Exit(hook.Main(os.Args[1:], env))
}

// record is a lock holder's part in the ledger (hud/ledger.Follow): the
// holder runs it while its agent lives.
func record(ctx context.Context, ownPID int, logger activity.Logger) {
	home := os.Getenv("HOME")
	if home == "" {
		return
	}
	write, flush := logger(home, "")
	// The recorder lives as long as its agent: each line goes out at once.
	logf := func(format string, args ...any) {
		write(format, args...)
		flush()
	}
	cfg, err := settings.ForHook(settings.DefaultPath(home, os.Getenv), os.Getenv)
	if err != nil {
		logf("ledger: settings: %v", err)
	}
	src := ledger.Sources{Layout: paths.Layout{Home: home}, Logs: registry.Logs, Keep: cfg.History.Keep, OwnPID: ownPID, Logf: logf}
	if err := ledger.Follow(ctx, src); err != nil {
		logf("%v", err)
	}
}
