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

// lineFormats are the formats `hud status --watch` streams: each renders
// a whole state as exactly one line, so a reader can take one line per
// change (waybar's custom module does exactly that).
var lineFormats = map[string]status.Format{
	"json":   status.WriteJSONLine,
	"waybar": status.WriteWaybar,
}

// watchStatusLines prints the state once, then again each time it
// changes, until SIGINT or SIGTERM. Unlike `hud watch` (a screen for a
// person), it writes bare lines for programs: no header, no clearing, and
// nothing when a file changed without changing the state.
func watchStatusLines(env *Env, format, project string) error {
	render, ok := lineFormats[format]
	switch {
	case format == "text": // the flag's default: --watch alone means JSON lines
		render = lineFormats["json"]
	case !ok:
		return usagef("--watch prints json or waybar lines, not %q", format)
	}
	if project != "" {
		return usagef("--watch and --project do not go together")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return streamLines(ctx, env, render, lockholder.Alive)
}

// streamLines is the loop of watchStatusLines: one line per state, and
// none when a file changed without changing it.
func streamLines(ctx context.Context, env *Env, render status.Format, alive resolver.Liveness) error {
	layout := env.Layout()
	return follow(ctx, env, false, func(now time.Time) (watchFrame, error) {
		// A corrupt store reads as no sessions until the hook replaces
		// it: a status bar shows "idle" rather than an error message.
		snap, _ := resolver.LoadSnapshot(layout, claudeProcessStart)
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
