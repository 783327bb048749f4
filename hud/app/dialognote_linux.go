package app

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	_ "image/png"
	"slices"
	"strings"
	"sync"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

const (
	notifyName  = "org.freedesktop.Notifications"
	notifyPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	notifyIface = "org.freedesktop.Notifications"
)

// DialogNotes shows each dialog waiting for an answer as a freedesktop
// notification with one button per choice, and answers the request a
// button names when it is clicked (ActionInvoked). beeep, which sends the
// other notifications, has no actions; this speaks to the daemon itself
// over a connection of its own.
//
// An action's key is "<request id>:<choice key>", so a click names its
// request whatever happened since: a button of a dialog that is over is
// refused by the tray's server, never passed to a later dialog.
type DialogNotes struct {
	conn   *dbus.Conn
	obj    dbus.BusObject
	answer func(id, choice string) error
	hold   func(notify.Notification) string // why a note must not show now; "" shows it
	logf   func(format string, args ...any)
	work   chan []noteFor // the latest dialogs to show; the sender keeps up
	image  *imageData     // the waiting icon, as the other notifications show it

	mu    sync.Mutex
	shown map[string]uint32 // request id → notification id
	// held are the requests whose note was held back (Do Not Disturb, the
	// person at that terminal): the dialog is the terminal's to answer, and
	// its note is not offered again while it waits.
	held map[string]bool
}

// noteFor is one dialog to show, with the name of its session and where
// its terminal is.
type noteFor struct {
	req   answer.Request
	name  string
	where view.Place
}

// texts are the notification's summary, body and actions (key, label
// pairs). The text goes through notify's Title and Body, as every
// notification's does: the subject was written by a model or a project,
// and a tag in it would hide what a "Yes" allows. Action labels are plain
// text by the spec.
func (n noteFor) texts() (summary, body string, actions []string) {
	for _, c := range n.req.Choices {
		actions = append(actions, n.req.ID+":"+c.Key, c.Label)
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
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, err
	}
	obj := conn.Object(notifyName, notifyPath)
	var caps []string
	if err := obj.Call(notifyIface+".GetCapabilities", 0).Store(&caps); err != nil {
		conn.Close()
		return nil, err
	}
	if !slices.Contains(caps, "actions") {
		conn.Close()
		return nil, errNoActions
	}
	if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(notifyPath), dbus.WithMatchInterface(notifyIface)); err != nil {
		conn.Close()
		return nil, err
	}
	d := &DialogNotes{conn: conn, obj: obj, answer: answerFn, hold: hold, logf: logf, work: make(chan []noteFor, 1),
		shown: map[string]uint32{}, held: map[string]bool{}}
	if png, err := assets.Icon(assets.IconWaiting, 1, false); err == nil {
		d.image = toImageData(png)
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	go d.listen(signals)
	go d.send()
	return d, nil
}

// Close closes every notification shown and the connection.
func (d *DialogNotes) Close() {
	if d == nil {
		return
	}
	close(d.work)
	d.mu.Lock()
	for id, n := range d.shown {
		d.obj.Call(notifyIface+".CloseNotification", 0, n)
		delete(d.shown, id)
	}
	d.mu.Unlock()
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
			_, done := d.shown[n.req.ID]
			done = done || d.held[n.req.ID]
			d.mu.Unlock()
			if done {
				continue
			}
			summary, body, actions := n.texts()
			if why := d.holdBack(n, summary, body); why != "" {
				d.logf("answering: notification held back (%s): %s", why, summary)
				d.mu.Lock()
				d.held[n.req.ID] = true
				d.mu.Unlock()
				continue
			}
			hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}
			if d.image != nil {
				hints["image-data"] = dbus.MakeVariant(*d.image)
			}
			var id uint32
			// Expires never: it goes when the dialog is over.
			err := d.obj.Call(notifyIface+".Notify", 0, "hud", uint32(0), "", summary, body,
				actions, hints, int32(0)).Store(&id)
			if err != nil {
				d.logf("answering: notification: %v", err)
				continue
			}
			d.mu.Lock()
			d.shown[n.req.ID] = id
			d.mu.Unlock()
		}
		d.mu.Lock()
		for req, id := range d.shown {
			if !want[req] {
				d.obj.Call(notifyIface+".CloseNotification", 0, id)
				delete(d.shown, req)
			}
		}
		for req := range d.held {
			if !want[req] {
				delete(d.held, req)
			}
		}
		d.mu.Unlock()
	}
}

// holdBack says why n's note must not show now ("" when it may).
func (d *DialogNotes) holdBack(n noteFor, summary, body string) string {
	if d.hold == nil {
		return ""
	}
	return d.hold(notify.Notification{Kind: notify.KindWaiting, Title: summary, Body: body, Where: n.where})
}

// listen answers the request an invoked action names. The session bus is
// the person's own, so whoever emits there speaks for them; the tray's
// server still accepts only a choice of a request that waits.
func (d *DialogNotes) listen(signals <-chan *dbus.Signal) {
	for sig := range signals {
		if sig.Name != notifyIface+".ActionInvoked" || len(sig.Body) < 2 {
			continue
		}
		key, _ := sig.Body[1].(string)
		id, choice, ok := strings.Cut(key, ":")
		if !ok || len(id) != 32 {
			continue // another application's notification
		}
		d.answer(id, choice)
	}
}

// imageData is the notification spec's "image-data" hint: raw RGBA rows.
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
