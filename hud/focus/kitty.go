package focus

import (
	"context"

	"github.com/capacitor-hud/hud/hud/view"
)

// Kitty focuses the session's kitty window (its tab and OS window with
// it) through kitty's remote control, on the socket kitty listens on.
// That needs remote control switched on (allow_remote_control and
// listen_on in kitty.conf); without it the hook records no kitty window.
type Kitty struct{ Run Runner }

func (Kitty) Name() string { return "kitty" }

func (b Kitty) Focus(ctx context.Context, t view.Place) error {
	if t.Terminal.KittyWindow == "" || t.Terminal.KittyListenOn == "" || t.Host != "" {
		return ErrSkip
	}
	_, err := b.Run(ctx, Command{Name: "kitty", Args: []string{
		"@", "--to", t.Terminal.KittyListenOn, "focus-window", "--match", "id:" + t.Terminal.KittyWindow,
	}})
	return err
}
