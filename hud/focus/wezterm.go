package focus

import (
	"context"

	"github.com/capacitor-hud/hud/hud/view"
)

// WezTerm activates the session's pane (and its tab) in the WezTerm
// instance it runs in, then raises that instance's window: `wezterm cli`
// selects panes but does not raise the GUI.
type WezTerm struct {
	Run    Runner
	Window Raiser
}

func (WezTerm) Name() string { return "wezterm" }

func (b WezTerm) Focus(ctx context.Context, t view.Place) error {
	if t.Terminal.WeztermPane == "" || t.Host != "" {
		return ErrSkip
	}
	c := Command{Name: "wezterm", Args: []string{"cli", "activate-pane", "--pane-id", t.Terminal.WeztermPane}}
	if s := t.Terminal.WeztermSocket; s != "" {
		c.Env = []string{"WEZTERM_UNIX_SOCKET=" + s}
	}
	if _, err := b.Run(ctx, c); err != nil {
		return err
	}
	if b.Window != nil && t.PID > 0 {
		_ = b.Window.Raise(ctx, t.PID, t.Terminal.WindowID) // the pane is active; the window is a bonus
	}
	return nil
}
