package wayland

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// The idle protocols, each a global the compositor may offer.
const (
	// ExtIdleNotify is the standard one (KWin, sway 1.8 and later,
	// Hyprland, Mutter 48 and later); version 2 adds notifications that
	// count input only, not what inhibits the screen saver (a video).
	ExtIdleNotify = "ext_idle_notifier_v1"
	// KDEIdle is KDE's older protocol (KWin, sway 1.7).
	KDEIdle = "org_kde_kwin_idle"
)

// ErrNoIdleProtocol is what Watch returns when the compositor offers
// neither idle protocol (GNOME before 48: Mutter's idle monitor on the
// session bus tells instead).
var ErrNoIdleProtocol = errors.New("the compositor offers no idle protocol (" + ExtIdleNotify + ", " + KDEIdle + ")")

// Watcher follows the compositor's word on the person's input: it asks to
// be told once the seat has had no input for its timeout (idled) and when
// input comes again (resumed). Idle periods shorter than the timeout read
// as none.
type Watcher struct {
	protocol string
	timeout  time.Duration
	now      func() time.Time
	cl       *Client
	done     chan struct{}
	// notification is the idle notification's object id.
	notification uint32

	mu        sync.Mutex
	idleSince time.Time // zero while the person is active
	err       error     // why the connection ended; nil while it lives
}

// Watch connects to the compositor listening at path and has it tell when
// the person has had no input for timeout (at least a second), then follows
// its word until Close or the connection ends. ctx bounds the connection
// and the first exchange; now is the clock (nil: time.Now).
func Watch(ctx context.Context, path string, timeout time.Duration, now func() time.Time) (*Watcher, error) {
	if now == nil {
		now = time.Now
	}
	timeout = max(timeout, time.Second)
	cl, err := Dial(ctx, path)
	if err != nil {
		return nil, err
	}
	w := &Watcher{timeout: timeout, now: now, cl: cl, done: make(chan struct{})}
	if err := w.setUp(ctx); err != nil {
		cl.Close()
		return nil, err
	}
	go w.follow()
	return w, nil
}

// setUp binds a seat and an idle notifier and asks for the notification,
// then waits for the compositor to have handled it all (a sync), so that a
// refusal shows here.
func (w *Watcher) setUp(ctx context.Context) error {
	cl := w.cl
	if _, ok := cl.Global("wl_seat"); !ok {
		return errors.New("the compositor offers no seat")
	}
	kind := ExtIdleNotify
	if _, ok := cl.Global(kind); !ok {
		kind = KDEIdle
	}
	if _, ok := cl.Global(kind); !ok {
		return ErrNoIdleProtocol
	}
	seat, _, err := cl.Bind("wl_seat", 1)
	if err != nil {
		return err
	}
	notifier, version, err := cl.Bind(kind, 2)
	if err != nil {
		return err
	}
	notification := cl.NewID()
	ms := uint32(w.timeout / time.Millisecond)
	switch {
	case kind == KDEIdle: // get_idle_timeout(id, seat, timeout)
		err = cl.Request(notifier, 0, notification, seat, ms)
	case version >= 2: // get_input_idle_notification(id, timeout, seat)
		err = cl.Request(notifier, 2, notification, ms, seat)
	default: // get_idle_notification(id, timeout, seat)
		err = cl.Request(notifier, 1, notification, ms, seat)
	}
	if err != nil {
		return err
	}
	w.protocol, w.notification = kind, notification
	return cl.Sync(ctx)
}

// follow reads events until the connection ends: the notification's
// idled (or KDE's idle) and resumed.
func (w *Watcher) follow() {
	defer close(w.done)
	for {
		e, err := w.cl.c.read()
		if err == nil && e.object == displayID && e.opcode == 0 {
			err = displayError(e)
		}
		if err != nil {
			w.mu.Lock()
			w.err = fmt.Errorf("the connection to the compositor ended: %w", err)
			w.mu.Unlock()
			return
		}
		if e.object != w.notification {
			continue
		}
		w.mu.Lock()
		switch e.opcode {
		case 0: // idled: no input for about the timeout
			w.idleSince = w.now().Add(-idledAfter(w.timeout))
		case 1: // resumed
			w.idleSince = time.Time{}
		}
		w.mu.Unlock()
	}
}

// idledAfter is how long the person has surely been idle when the
// compositor says idled after timeout. KWin's timer is a coarse Qt timer,
// which fires up to 5 % early (4.75 s for 5 s, measured), so the idle
// time is counted from the latest it can have begun: a push that must
// wait push_after never comes early, at worst a tenth of the timeout late.
func idledAfter(timeout time.Duration) time.Duration {
	return timeout * 19 / 20
}

// Protocol names the idle protocol the compositor serves (ExtIdleNotify or
// KDEIdle).
func (w *Watcher) Protocol() string { return w.protocol }

// Idle returns how long the person has had no input: 0 while active or
// idle for less than the timeout. The error says the connection ended.
func (w *Watcher) Idle() (time.Duration, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	if w.idleSince.IsZero() {
		return 0, nil
	}
	return max(w.now().Sub(w.idleSince), 0), nil
}

// Close ends the connection and waits for the watcher to stop.
func (w *Watcher) Close() error {
	err := w.cl.Close()
	<-w.done
	return err
}
