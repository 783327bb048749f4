package focus

import (
	"context"

	"github.com/capacitor-hud/hud/hud/view"
)

// Window raises the desktop window of the Claude process's terminal, found
// through its ancestry.
type Window struct{ Raiser Raiser }

func (Window) Name() string { return "window" }

func (w Window) Focus(ctx context.Context, t view.Place) error {
	if t.PID <= 0 || t.Host != "" {
		return ErrSkip
	}
	return w.Raiser.Raise(ctx, t.PID, t.Terminal.WindowID)
}
