package notify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	fdnotify "github.com/esiqveland/notify"
)

// On Linux a notification is one Notify call on a connection of its own,
// under the Desktop's deadline, subscribed to no signal. beeep is not used
// here: it opens a notifier of github.com/esiqveland/notify for each
// notification, which subscribes to the daemon's ActionInvoked and
// NotificationClosed and takes their arguments' types on trust
// (signal.Body[0].(uint32) in its handleSignal, v0.13.3): any program of
// the person's may emit those signals, and one with other arguments
// panics the tray. Nor do its calls have a deadline. A notification
// without buttons needs no signal at all. beeep's fallbacks, notify-send
// and kdialog, are left out: they reach the same daemon over the same bus,
// so where the call fails they fail too, and they wait with no deadline.

// expireAfter is how long a bubble stays (beeep's timeout on every
// platform).
const expireAfter = 5 * time.Second

func (d *Desktop) show(title, body string) error {
	ctx, cancel := context.WithTimeout(context.Background(), d.timeout)
	defer cancel()
	conn, err := ConnectBus(ctx)
	if err != nil {
		return fmt.Errorf("the session bus: %w", err)
	}
	defer conn.Close()
	_, err = BusNotify(ctx, conn, d.note(title, body))
	return err
}

// note is the notification (d.mu is held) as beeep.Notify and beeep.Alert make it on the
// bus, but for the icon's pixels: app name "hud", the icon as image-data
// (PNG bytes, not premultiplied) or as the app icon (a path, made
// absolute), and with the sound on the daemon's "bell" and critical
// urgency.
func (d *Desktop) note(title, body string) fdnotify.Notification {
	n := fdnotify.Notification{AppName: appName, Summary: title, Body: body, ExpireTimeout: expireAfter}
	if d.sound {
		n.AddHint(fdnotify.HintSoundWithName("bell"))
		n.SetUrgency(fdnotify.UrgencyCritical)
	} else {
		n.SetUrgency(fdnotify.UrgencyNormal)
	}
	switch icon := d.icon.(type) {
	case []byte:
		if d.image == nil {
			d.image = ImageDataOf(icon)
		}
		if d.image != nil {
			n.AddHint(ImageHint(d.image))
		}
	case string:
		n.AppIcon = icon
		if _, err := os.Stat(icon); err == nil {
			if abs, err := filepath.Abs(icon); err == nil {
				n.AppIcon = abs
			}
		}
	}
	return n
}
