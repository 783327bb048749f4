package focus

import "context"

// Window raises the desktop window of the Claude process's terminal, found
// through its ancestry.
type Window struct{ Raiser Raiser }

func (Window) Name() string { return "window" }

func (w Window) Focus(ctx context.Context, t Target) error {
	if t.PID <= 0 || t.Host != "" {
		return ErrSkip
	}
	return w.Raiser.Raise(ctx, t.PID, t.Terminal.WindowID)
}
