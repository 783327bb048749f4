package cli

import (
	"os/exec"
	"runtime"

	"github.com/capacitor-hud/hud/hud/attention"
	"github.com/capacitor-hud/hud/hud/doctor"
	"github.com/capacitor-hud/hud/hud/focus"
)

// attentionOf is what doctor asks the desktop about hud/attention's parts,
// the way the tray asks it.
func attentionOf(env *Env) *doctor.Attention {
	_, player := attention.Player(runtime.GOOS, exec.LookPath, attention.DataDirs(env.Getenv))
	display := env.Getenv("DISPLAY")
	a := &doctor.Attention{
		HeldBack:       attention.DND{Property: attention.BusProperty, Modes: attention.MakoModes, Run: focus.Exec, Getenv: env.Getenv}.Reason,
		Display:        display,
		Idle:           attention.DesktopIdle(env.Getenv, display).Which,
		Player:         player,
		RelativePlayer: attention.RelativeOnly(runtime.GOOS, exec.LookPath),
		Wayland:        env.Getenv("WAYLAND_DISPLAY") != "",
	}
	if c := focus.DetectCompositor(env.Getenv); c != nil {
		a.Compositor, a.Focused = c.Name(), c.Focused
	}
	return a
}
