package notify

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// Sender shows notifications. Send may block for a while (a D-Bus round
// trip, or a command on macOS): call it off the event loop.
type Sender interface {
	Send(Notification) error
}

// appName is how the HUD names itself to the notification daemon.
const appName = "hud"

// SendTimeout bounds one notification's trip to the daemon on Linux, and
// each call the tray makes to the notification daemon there (the
// notifications with buttons too). A daemon that never answers (stopped,
// or a program that took its name and stays silent) costs that long and a
// log line, never the tray.
const SendTimeout = 3 * time.Second

// Desktop sends notifications to the desktop: on Linux
// org.freedesktop.Notifications over the session bus (sender_linux.go),
// on macOS through beeep (terminal-notifier if installed, else
// osascript).
type Desktop struct {
	icon any // PNG bytes or a file path
	// image is icon's PNG decoded for the daemon (Linux), at the first
	// send: the icon does not change, so it is decoded once.
	image *ImageData
	sound bool
	// timeout bounds one send on Linux (SendTimeout; tests shorten it).
	timeout time.Duration
	// mu serialises sends: two bubbles racing each other arrive in any
	// order.
	mu sync.Mutex
}

// NewDesktop returns a Desktop sender. icon is a PNG as []byte or the path
// of a PNG file; sound asks for the daemon's alert sound with each (on
// Linux such notifications are also marked critical, which some daemons
// keep on screen until dismissed).
func NewDesktop(icon any, sound bool) (*Desktop, error) {
	switch v := icon.(type) {
	case []byte:
		if len(v) == 0 {
			return nil, errors.New("notification icon: empty PNG")
		}
	case string:
		if v == "" {
			return nil, errors.New("notification icon: empty path")
		}
	default:
		return nil, fmt.Errorf("notification icon: want PNG bytes or a path, got %T", icon)
	}
	return &Desktop{icon: icon, sound: sound, timeout: SendTimeout}, nil
}

// SetSound turns the sound on or off (after the settings were reloaded).
func (d *Desktop) SetSound(on bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sound = on
}

// Send shows n, its text made safe by Title and Body.
func (d *Desktop) Send(n Notification) error {
	title, body := Title(n.Title), Body(n.Body)
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.show(title, body); err != nil {
		return fmt.Errorf("showing the %s notification for %s: %w", n.Kind, n.Project, err)
	}
	return nil
}

// Recorder is a Sender for tests: it keeps what it was given.
type Recorder struct {
	mu   sync.Mutex
	sent []Notification
	// Err, when set, is returned by every Send (after recording).
	Err error
}

// Send records n.
func (r *Recorder) Send(n Notification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, n)
	return r.Err
}

// Sent returns a copy of everything sent so far.
func (r *Recorder) Sent() []Notification {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Notification(nil), r.sent...)
}
