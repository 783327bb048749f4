package cli

import (
	"bytes"
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/lockholder"
	"github.com/capacitor-hud/hud/resolver"
)

// watchStatusLines prints the state once, then again each time it
// changes, until SIGINT or SIGTERM. Unlike `hud watch` (a screen for a
// person), it writes bare lines for programs: no header, no clearing, and
// nothing when a file changed without changing the state.
func watchStatusLines(env *Env, f status.Format, project string) error {
	if f.Name == status.Formats[0].Name {
		// The flag's default, a table, is no line: --watch alone means
		// JSON lines.
		f, _ = status.LookupFormat("json")
	}
	if f.Line == nil {
		return usagef("--watch prints %s lines, not %q", status.FormatNames(status.Streams), f.Name)
	}
	if project != "" {
		return usagef("--watch and --project do not go together")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return streamLines(ctx, env, f.Line, lockholder.Alive)
}

// streamLines is the loop of watchStatusLines: one line per state, and
// none when a file changed without changing it.
func streamLines(ctx context.Context, env *Env, render status.Render, alive resolver.Liveness) error {
	layout := env.Layout()
	return follow(ctx, env, false, func(now time.Time) (watchFrame, error) {
		// A corrupt store reads as no sessions until the hook replaces
		// it: a status bar shows "idle" rather than an error message.
		snap, _ := resolver.LoadSnapshot(layout, lockholder.StartTicks)
		sessions := resolver.ResolveAll(snap, now, alive)
		var line bytes.Buffer
		v := status.New(sessions, now)
		v.HooksProblem = hooksDoubt(layout, sessions)
		if err := render(&line, v); err != nil {
			return watchFrame{}, err
		}
		// The state also changes by the clock alone (a fresh record
		// without a lock expires); ages are not shown, so not counted.
		next := nextChangeByClock(snap, sessions, now, false)
		return watchFrame{text: line.Bytes(), body: line.Bytes(), next: next, lockDirs: snap.LockDirs}, nil
	})
}
