package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/watch"
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

// streamLines is the loop of watchStatusLines. The watcher starts before
// the first read, so a change between the two is never missed.
func streamLines(ctx context.Context, env *Env, render status.Format, alive resolver.Liveness) error {
	layout := env.Layout()
	w, err := watch.New(watch.Options{Layout: layout})
	if err != nil {
		return withHint(err, "check the permissions of "+layout.StoreDir()+" and "+layout.LockDir())
	}
	defer w.Close()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var last []byte
	for {
		now := env.Now()
		// A corrupt store reads as no sessions until the hook replaces
		// it: a status bar shows "idle" rather than an error message.
		snap, _ := resolver.LoadSnapshot(layout, claudeProcessStart)
		sessions := resolver.ResolveAll(snap, now, alive)
		var line bytes.Buffer
		if err := render(&line, status.New(sessions, now)); err != nil {
			return err
		}
		if !bytes.Equal(line.Bytes(), last) {
			if _, err := env.Stdout.Write(line.Bytes()); err != nil {
				return nil // the reader went away (a closed pipe): done
			}
			last = line.Bytes()
		}
		// The state also changes by the clock alone (a fresh record
		// without a lock expires); wake up for that, ages not counted.
		timer.Stop()
		if next := nextChangeByClock(snap, sessions, now, false); !next.IsZero() {
			timer.Reset(max(0, next.Sub(now)))
		}
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-w.Changes():
			if !ok {
				return fmt.Errorf("watching %s: the watcher stopped", layout.StoreDir())
			}
		case <-timer.C:
		}
	}
}
