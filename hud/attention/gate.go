package attention

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

// DefaultTimeout bounds the desktop's answer to "Do Not Disturb?": a bus
// that does not answer delays that one notification at most this long. As
// long as a click's (focus.DefaultTimeout).
const DefaultTimeout = focus.DefaultTimeout

// DefaultLookTimeout bounds the whole "is the person looking at it?"
// decision for one notification, every server it asks included. The
// notifications are decided one after another, so this is also what a
// server that does not answer adds to each notification queued behind;
// focus.Looking then skips that server for focus.SilentFor, so a burst
// pays it once. A tmux server answers in milliseconds, `kitty @` (a
// Python program) in a fraction of a second; what has not answered by
// then counts as not looking, and the notification is shown: a bubble
// too many costs less than one lost.
const DefaultLookTimeout = 500 * time.Millisecond

// Gate is a notify.Sender that holds back what the person should not be
// interrupted with and gives what it lets through its sound. Its Send runs
// on the notifications' own goroutine, never the tray's loop.
type Gate struct {
	Next notify.Sender
	// Quiet says why the desktop holds notifications back ("" when it does
	// not); nil: never.
	Quiet func(context.Context) (string, error)
	// Looking says whether the person looks at a session's terminal; nil:
	// never. It is asked about the notification's session only.
	Looking func(context.Context, view.Place) (bool, error)
	// Sounds plays a shown notification's sound; nil: none.
	Sounds *Sounds
	// Timeout bounds Quiet; 0 means DefaultTimeout.
	Timeout time.Duration
	// LookTimeout bounds Looking, which counts as "not looking" when it
	// has not answered by then; 0 means DefaultLookTimeout.
	LookTimeout time.Duration
	Logf        func(format string, args ...any)
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
	if g.Quiet != nil {
		ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(g.Timeout, DefaultTimeout))
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
	looking, err := g.looking(n.Where)
	if err != nil && !errors.Is(err, focus.ErrSkip) {
		g.logf("asking whether you look at the session's terminal: %v", err)
	}
	if looking {
		return "you are looking at its terminal"
	}
	return ""
}

// looking asks Looking about where, and returns by the LookTimeout
// deadline whether Looking has returned or not: a Looking that does not
// keep its deadline (a program that outlives its kill, a socket dial)
// holds no notification past it. Given up on, it ends on its own, its
// context cancelled.
func (g *Gate) looking(where view.Place) (bool, error) {
	timeout := cmp.Or(g.LookTimeout, DefaultLookTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	type answer struct {
		looking bool
		err     error
	}
	done := make(chan answer, 1)
	go func() {
		looking, err := g.Looking(ctx, where)
		done <- answer{looking, err}
	}()
	select {
	case a := <-done:
		return a.looking, a.err
	case <-ctx.Done():
		select {
		case a := <-done: // came with the deadline
			return a.looking, a.err
		default:
			return false, fmt.Errorf("no answer within %v: %w", timeout, ctx.Err())
		}
	}
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
