package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	fdnotify "github.com/esiqveland/notify"
	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

// DialogNotes shows each dialog waiting for an answer as a freedesktop
// notification with one button per choice, and answers the request a
// button names when it is clicked. It holds a connection of its own,
// subscribed to the daemon's ActionInvoked signals.
//
// An action's key is "<request id>:<choice key>", so a click names its
// request whatever happened since: a button of a dialog that is over is
// refused by the tray's server, never passed to a later dialog. A note the
// person closes is not offered again while its dialog waits (no
// NotificationClosed is heard): the menu still answers it.
//
// Every call to the bus and the daemon has a deadline (timeout) and runs
// off the tray's loop: in the goroutine that connects (NewDialogNotes, see
// Answers.Configure) and in the sender's.
type DialogNotes struct {
	conn    *dbus.Conn
	answer  func(id, choice string) error
	hold    func(notify.Notification) string // why a note must not show now; "" shows it
	logf    func(format string, args ...any)
	timeout time.Duration     // bounds each call to the daemon, or each batch of closes
	work    chan []noteFor    // the latest dialogs to show; the sender keeps up
	image   *notify.ImageData // the waiting icon, as the other notifications show it
	closing sync.Once
	done    chan struct{} // closed once the sender closed the notes and the connection

	mu sync.Mutex
	// noted are the requests whose note was sent, to its notification's
	// id, or held back or failed, to 0 (no notification has that id): Do
	// Not Disturb, or the person at that terminal, make the dialog the
	// terminal's to answer, and its note is not offered again while it
	// waits.
	noted map[string]uint32
}

// noteFor is one dialog to show, with the name of its session and where
// its terminal is.
type noteFor struct {
	req   answer.Request
	name  string
	where view.Place
}

// texts are the notification's summary, body and buttons. The text goes
// through notify's Title and Body, as every notification's does: the
// subject was written by a model or a project, and a tag in it would hide
// what a "Yes" allows. Action labels are plain text by the spec.
func (n noteFor) texts() (summary, body string, actions []fdnotify.Action) {
	for _, c := range n.req.Choices {
		actions = append(actions, fdnotify.Action{Key: n.req.ID + ":" + c.Key, Label: c.Label})
	}
	return notify.Title(n.name + " needs you"), notify.Body(n.req.Subject), actions
}

// errNoActions: the daemon shows no buttons; the menu is the way.
var errNoActions = errors.New("the notification daemon has no actions capability")

// NewDialogNotes connects to the session bus's notification daemon; it
// fails when there is none, it shows no buttons (the menu then answers),
// or it does not answer within timeout. It blocks that long at most: call
// it off the tray's loop. hold says why a note must not show now, as for
// every other notification (attention.Gate.HoldBack); nil shows every
// note.
func NewDialogNotes(timeout time.Duration, answerFn func(id, choice string) error, hold func(notify.Notification) string, logf func(string, ...any)) (*DialogNotes, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := notify.ConnectBus(ctx)
	if err != nil {
		return nil, fmt.Errorf("session bus: %w", err)
	}
	var caps []string
	if err := notify.DaemonCall(ctx, conn, "GetCapabilities").Store(&caps); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notification daemon: GetCapabilities: %w", err)
	}
	if !slices.Contains(caps, "actions") {
		conn.Close()
		return nil, errNoActions
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	err = conn.AddMatchSignalContext(ctx, dbus.WithMatchObjectPath(notify.DaemonPath),
		dbus.WithMatchInterface(notify.DaemonIface), dbus.WithMatchMember("ActionInvoked"))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("session bus: subscribing to ActionInvoked: %w", err)
	}
	d := &DialogNotes{conn: conn, answer: answerFn, hold: hold, logf: logf, timeout: timeout,
		work: make(chan []noteFor, 1), done: make(chan struct{}), noted: map[string]uint32{}}
	if png, err := assets.Icon(assets.IconWaiting, 1, false); err == nil {
		d.image = notify.ImageDataOf(png)
	}
	go d.listen(signals)
	go d.send()
	return d, nil
}

// listen answers the clicks the daemon reports, until the connection
// closes (which closes signals).
func (d *DialogNotes) listen(signals <-chan *dbus.Signal) {
	for sig := range signals {
		if key, ok := actionKey(sig); ok {
			d.invoked(key)
		}
	}
}

// actionKey is the action key of an ActionInvoked signal with the
// arguments the spec gives it (uint32 id, string key). Any program on the
// session bus may emit the daemon's signals, with any arguments, or send
// them to the tray's connection alone: any other is let go. (The
// notification library's own handler takes the types on trust and panics
// on such a signal.)
func actionKey(sig *dbus.Signal) (string, bool) {
	if sig == nil || sig.Path != notify.DaemonPath || sig.Name != notify.DaemonIface+".ActionInvoked" || len(sig.Body) != 2 {
		return "", false
	}
	if _, ok := sig.Body[0].(uint32); !ok {
		return "", false
	}
	key, ok := sig.Body[1].(string)
	return key, ok
}

// Close closes every notification shown and the connection, in the
// sender's goroutine: it returns at once (the loop calls it when answering
// is turned off). Done is closed when that is over, within the timeout.
func (d *DialogNotes) Close() {
	if d == nil {
		return
	}
	d.closing.Do(func() { close(d.work) })
}

// Done is closed once Close has closed the notes and the connection.
func (d *DialogNotes) Done() <-chan struct{} { return d.done }

// Show makes the notifications match the dialogs of views: a new one for
// each new dialog, none for a dialog that is over. It never blocks the
// loop: the D-Bus calls run in the sender's goroutine.
func (d *DialogNotes) Show(views []view.Session) {
	if d == nil {
		return
	}
	var notes []noteFor
	for i := range views {
		if views[i].Dialog != nil {
			notes = append(notes, noteFor{*views[i].Dialog, views[i].Name(), views[i].Place()})
		}
	}
	select {
	case <-d.work: // superseded
	default:
	}
	d.work <- notes
}

func (d *DialogNotes) send() {
	defer close(d.done)
	defer d.conn.Close()
	defer d.closeAll(nil)
	for notes := range d.work {
		want := map[string]bool{}
		for _, n := range notes {
			want[n.req.ID] = true
			d.mu.Lock()
			_, done := d.noted[n.req.ID]
			d.mu.Unlock()
			if !done {
				d.showOne(n)
			}
		}
		d.closeAll(want)
	}
}

// closeAll closes the notes of the requests not in keep and forgets them.
// The closes share one deadline: a daemon that does not answer costs the
// sender one timeout and one log line.
func (d *DialogNotes) closeAll(keep map[string]bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var ctx context.Context
	for req, id := range d.noted {
		if keep[req] {
			continue
		}
		if id != 0 {
			if ctx == nil {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(context.Background(), d.timeout)
				defer cancel()
			}
			// An error but the deadline's is a note already gone.
			notify.DaemonCall(ctx, d.conn, "CloseNotification", id)
		}
		delete(d.noted, req)
	}
	if ctx != nil && ctx.Err() != nil {
		d.logf("answering: closing notifications: the daemon did not answer within %v", d.timeout)
	}
}

// showOne shows n's note, or records it as held back.
func (d *DialogNotes) showOne(n noteFor) {
	summary, body, actions := n.texts()
	if why := d.holdBack(n, summary, body); why != "" {
		d.logf("answering: notification held back (%s): %s", why, summary)
		d.mu.Lock()
		d.noted[n.req.ID] = 0
		d.mu.Unlock()
		return
	}
	note := fdnotify.Notification{AppName: "hud", Summary: summary, Body: body, Actions: actions,
		ExpireTimeout: fdnotify.ExpireTimeoutNever} // it goes when the dialog is over
	note.SetUrgency(fdnotify.UrgencyNormal)
	if d.image != nil {
		note.AddHint(notify.ImageHint(d.image))
	}
	ctx, cancel := context.WithTimeout(context.Background(), d.timeout)
	id, err := notify.BusNotify(ctx, d.conn, note)
	cancel()
	if err != nil {
		// Not offered again while the dialog waits: a daemon that failed
		// or stayed silent would likely do the same each time, and the
		// menu answers.
		d.logf("answering: notification: %v", err)
		id = 0
	}
	d.mu.Lock()
	d.noted[n.req.ID] = id
	d.mu.Unlock()
}

// holdBack says why n's note must not show now ("" when it may).
func (d *DialogNotes) holdBack(n noteFor, summary, body string) string {
	if d.hold == nil {
		return ""
	}
	return d.hold(notify.Notification{Kind: notify.KindWaiting, Title: summary, Body: body, Where: n.where})
}

// invoked answers the request an invoked action's key names. The
// subscription hears every application's actions, so a key not of ours is
// let go. The session bus is the person's own, so whoever emits there
// speaks for them; the tray's server still accepts only a choice of a
// request that waits.
func (d *DialogNotes) invoked(key string) {
	id, choice, ok := strings.Cut(key, ":")
	if !ok || len(id) != 32 {
		return
	}
	d.answer(id, choice) // the answer logs what it refuses
}
