package app

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/png"
	"slices"
	"strings"
	"sync"

	fdnotify "github.com/esiqveland/notify"
	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

// DialogNotes shows each dialog waiting for an answer as a freedesktop
// notification with one button per choice, and answers the request a
// button names when it is clicked. beeep, which sends the other
// notifications, has no actions; this holds a connection of its own with
// a notifier that hears the daemon's ActionInvoked signals.
//
// An action's key is "<request id>:<choice key>", so a click names its
// request whatever happened since: a button of a dialog that is over is
// refused by the tray's server, never passed to a later dialog. A note the
// person closes is not offered again while its dialog waits (the notifier
// lets NotificationClosed go): the menu still answers it.
type DialogNotes struct {
	conn     *dbus.Conn
	notifier fdnotify.Notifier
	answer   func(id, choice string) error
	hold     func(notify.Notification) string // why a note must not show now; "" shows it
	logf     func(format string, args ...any)
	work     chan []noteFor // the latest dialogs to show; the sender keeps up
	image    *imageData     // the waiting icon, as the other notifications show it

	mu sync.Mutex
	// noted are the requests whose note was sent, to its notification's
	// id, or held back, to 0 (no notification has that id): Do Not
	// Disturb, or the person at that terminal, make the dialog the
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
// fails when there is none or it shows no buttons (the menu then answers).
// hold says why a note must not show now, as for every other
// notification (attention.Gate.HoldBack); nil shows every note.
func NewDialogNotes(answerFn func(id, choice string) error, hold func(notify.Notification) string, logf func(string, ...any)) (*DialogNotes, error) {
	conn, err := dbus.ConnectSessionBus(dbus.WithSignalHandler(specSignals{dbus.NewDefaultSignalHandler()}))
	if err != nil {
		return nil, fmt.Errorf("session bus: %w", err)
	}
	caps, err := fdnotify.GetCapabilities(conn)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("notification daemon: %w", err)
	}
	if !slices.Contains(caps, "actions") {
		conn.Close()
		return nil, errNoActions
	}
	d := &DialogNotes{conn: conn, answer: answerFn, hold: hold, logf: logf, work: make(chan []noteFor, 1),
		noted: map[string]uint32{}}
	if png, err := assets.Icon(assets.IconWaiting, 1, false); err == nil {
		d.image = toImageData(png)
	}
	d.notifier, err = fdnotify.New(conn, fdnotify.WithOnAction(d.invoked), fdnotify.WithLogger(busLog{logf}))
	if err != nil {
		conn.Close()
		return nil, err
	}
	go d.send()
	return d, nil
}

// busLog puts what the notifier has to say in the tray's log.
type busLog struct{ logf func(string, ...any) }

func (l busLog) Printf(format string, args ...any) { l.logf("answering: notifier: "+format, args...) }

// signalHandler is what a connection needs of the handler its signals go
// through: delivering them, to the channels registered, until it closes.
type signalHandler interface {
	dbus.SignalHandler
	dbus.SignalRegistrar
	dbus.Terminator
}

// specSignals passes on the daemon's ActionInvoked and NotificationClosed
// only with the arguments the spec gives them. The notifier takes their
// types as given, and any program on the session bus may emit these
// signals: one with other arguments would stop the tray.
type specSignals struct{ signalHandler }

// specArgs are the signatures of the daemon's signals the notifier reads.
var specArgs = map[string]string{"ActionInvoked": "us", "NotificationClosed": "uu"}

func (h specSignals) DeliverSignal(iface, name string, sig *dbus.Signal) {
	want := specArgs[name]
	if iface == "org.freedesktop.Notifications" && want != "" && dbus.SignatureOf(sig.Body...).String() != want {
		return
	}
	h.signalHandler.DeliverSignal(iface, name, sig)
}

// Close closes every notification shown and the connection.
func (d *DialogNotes) Close() {
	if d == nil {
		return
	}
	close(d.work)
	d.closeAll(nil)
	d.notifier.Close()
	d.conn.Close()
}

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
func (d *DialogNotes) closeAll(keep map[string]bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for req, id := range d.noted {
		if keep[req] {
			continue
		}
		if id != 0 {
			d.notifier.CloseNotification(id)
		}
		delete(d.noted, req)
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
		note.AddHint(fdnotify.Hint{ID: "image-data", Variant: dbus.MakeVariant(*d.image)})
	}
	id, err := d.notifier.SendNotification(note)
	if err != nil {
		d.logf("answering: notification: %v", err)
		return
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

// invoked answers the request an invoked action names. The notifier hears
// every application's actions, so a key not of ours is let go. The session
// bus is the person's own, so whoever emits there speaks for them; the
// tray's server still accepts only a choice of a request that waits.
func (d *DialogNotes) invoked(sig *fdnotify.ActionInvokedSignal) {
	id, choice, ok := strings.Cut(sig.ActionKey, ":")
	if !ok || len(id) != 32 {
		return
	}
	d.answer(id, choice) // the answer logs what it refuses
}

// imageData is the notification spec's "image-data" hint: raw RGBA rows,
// not premultiplied. The library's HintImageDataRGBA sends an image.RGBA's
// premultiplied pixels, which darken the icon's soft edges.
type imageData struct {
	Width, Height, Rowstride int32
	HasAlpha                 bool
	BitsPerSample, Channels  int32
	Data                     []byte
}

// toImageData decodes a PNG for the image-data hint; nil when it cannot.
func toImageData(png []byte) *imageData {
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		return nil
	}
	b := img.Bounds()
	rgba := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	return &imageData{Width: int32(b.Dx()), Height: int32(b.Dy()), Rowstride: int32(rgba.Stride),
		HasAlpha: true, BitsPerSample: 8, Channels: 4, Data: rgba.Pix}
}
