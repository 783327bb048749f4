package cli

import (
	"context"
	"os/exec"
	"runtime"
	"time"

	"github.com/capacitor-hud/hud/hud/attention"
	"github.com/capacitor-hud/hud/hud/doctor"
	"github.com/capacitor-hud/hud/hud/focus"
)

// attentionOf is what doctor asks the desktop about hud/attention's parts,
// the way the tray asks it.
func attentionOf(env *Env) *doctor.Attention {
	_, player := attention.Player(runtime.GOOS, exec.LookPath, attention.DataDirs(env.Getenv))
	display := env.Getenv("DISPLAY")
	return &doctor.Attention{
		HeldBack: attention.DND{Property: attention.BusProperty, Run: focus.Exec, Getenv: env.Getenv}.Reason,
		Display:  display,
		Idle: attention.FirstIdle(func(ctx context.Context) (time.Duration, error) { return focus.Idle(ctx, display) },
			attention.BusIdle),
		Player:         player,
		RelativePlayer: attention.RelativeOnly(runtime.GOOS, exec.LookPath),
	}
}
