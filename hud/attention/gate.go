package attention

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

// DefaultTimeout bounds each question the Gate asks before a notification
// (the desktop's DND, the terminal's focus): a bus or a terminal that does
// not answer delays that one notification at most this long. As long as a
// click's (focus.DefaultTimeout): `kitty @`, a Python program, can take
// a second to start on a busy machine.
const DefaultTimeout = focus.DefaultTimeout

// Gate is a notify.Sender that holds back what the person should not be
// interrupted with and gives what it lets through its sound. Its Send runs
// on the notifications' own goroutine, never the tray's loop.
type Gate struct {
	Next notify.Sender
	// Quiet says why the desktop holds notifications back ("" when it does
	// not); nil: never.
	Quiet func(context.Context) (string, error)
	// Looking says whether the person looks at a session's terminal; nil:
	// never.
	Looking func(context.Context, view.Place) (bool, error)
	// Sounds plays a shown notification's sound; nil: none.
	Sounds *Sounds
	// Timeout bounds each question; 0 means DefaultTimeout.
	Timeout time.Duration
	Logf    func(format string, args ...any)
}

// Send shows n unless the desktop says Do Not Disturb or n is about a
// session whose terminal the person is looking at; a shown notification
// plays its sound.
func (g *Gate) Send(n notify.Notification) error {
	if why := g.HoldBack(n); why != "" {
		g.logf("notification held back (%s): %s", why, n.Title)
		return nil
	}
	if err := g.Next.Send(n); err != nil {
		return err
	}
	if g.Sounds != nil {
		if err := g.Sounds.Play(n.Kind); err != nil {
			g.logf("notification sound: %v", err)
		}
	}
	return nil
}

// HoldBack says why n must not be shown now, "" when it may: the
// desktop's Do Not Disturb, or the person looking at the terminal of n's
// session. The notifications with buttons ask it too.
func (g *Gate) HoldBack(n notify.Notification) string {
	timeout := cmp.Or(g.Timeout, DefaultTimeout)
	if g.Quiet != nil {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		why, err := g.Quiet(ctx)
		cancel()
		if err != nil {
			g.logf("asking the desktop for Do Not Disturb: %v", err)
		}
		if why != "" {
			return why
		}
	}
	if g.Looking == nil || n.Where == (view.Place{}) {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	looking, err := g.Looking(ctx, n.Where)
	if err != nil && !errors.Is(err, focus.ErrSkip) {
		g.logf("asking whether you look at the session's terminal: %v", err)
	}
	if looking {
		return "you are looking at its terminal"
	}
	return ""
}

// Configure takes the reloaded settings: the sounds to play, and the
// sender's own sound setting passed on.
func (g *Gate) Configure(cfg config.Notifications) {
	if g.Sounds != nil {
		g.Sounds.Configure(cfg)
	}
	if s, ok := g.Next.(interface{ SetSound(on bool) }); ok {
		s.SetSound(cfg.Sound)
	}
}

// SetSound passes the sound setting on to the sender.
func (g *Gate) SetSound(on bool) {
	if s, ok := g.Next.(interface{ SetSound(on bool) }); ok {
		s.SetSound(on)
	}
}

func (g *Gate) logf(format string, args ...any) {
	if g.Logf != nil {
		g.Logf(format, args...)
	}
}
