package focus

import (
	"context"

	"github.com/capacitor-hud/hud/hud/view"
)

// Kitty focuses the session's kitty window (its tab and OS window with
// it) through kitty's remote control, on the socket kitty listens on.
// That needs remote control switched on (allow_remote_control and
// listen_on in kitty.conf); without it the hook records no kitty window.
// On Wayland kitty may only ask for its OS window to be activated, which
// a compositor may refuse, so the window of Claude's ancestry (the OS
// window) is then raised the desktop's way too.
type Kitty struct {
	Run Runner
	// Window raises the OS window; nil: kitty's own request only.
	Window Raiser
}

func (Kitty) Name() string { return "kitty" }

func (b Kitty) Focus(ctx context.Context, t view.Place) error {
	if t.Terminal.KittyWindow == "" || t.Terminal.KittyListenOn == "" || t.Host != "" {
		return ErrSkip
	}
	_, err := b.Run(ctx, Command{Name: "kitty", Args: []string{
		"@", "--to", t.Terminal.KittyListenOn, "focus-window", "--match", "id:" + t.Terminal.KittyWindow,
	}})
	if err != nil || b.Window == nil || t.PID <= 0 {
		return err
	}
	// The tab is current; only raising its OS window could fail, and
	// kitty has asked for that itself.
	_ = b.Window.Raise(ctx, t.PID, t.Terminal.WindowID)
	return nil
}
