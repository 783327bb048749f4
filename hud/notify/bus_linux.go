package notify

import (
	"context"
	"fmt"
	"time"

	fdnotify "github.com/esiqveland/notify"
	"github.com/godbus/dbus/v5"
)

// The notification daemon's name, object and interface on the session
// bus (the freedesktop notification spec).
const (
	DaemonName  = "org.freedesktop.Notifications"
	DaemonPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	DaemonIface = "org.freedesktop.Notifications"
)

// ConnectBus opens a private connection to the session bus within ctx.
// Its authentication and Hello take no context, so the connection is
// closed under them when ctx ends. It never autolaunches a bus
// (dbus-launch would leave a daemon behind, and no notification daemon
// watches a bus just made).
func ConnectBus(ctx context.Context, opts ...dbus.ConnOption) (*dbus.Conn, error) {
	conn, err := dbus.SessionBusPrivateNoAutoStartup(opts...)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	err = conn.Auth(nil)
	if err == nil {
		err = conn.Hello()
	}
	if !stop() {
		return nil, fmt.Errorf("connecting: %w", ctx.Err())
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// DaemonCall calls method of the notification daemon within ctx.
func DaemonCall(ctx context.Context, conn *dbus.Conn, method string, args ...any) *dbus.Call {
	return conn.Object(DaemonName, DaemonPath).CallWithContext(ctx, DaemonIface+"."+method, 0, args...)
}

// BusNotify asks the daemon to show n within ctx and returns the id it
// gave it. It is the library's SendNotification with a deadline: that one
// waits as long as the daemon takes.
func BusNotify(ctx context.Context, conn *dbus.Conn, n fdnotify.Notification) (uint32, error) {
	actions := []string{}
	for _, a := range n.Actions {
		actions = append(actions, a.Key, a.Label)
	}
	hints := n.Hints
	if hints == nil {
		hints = map[string]dbus.Variant{}
	}
	var id uint32
	err := DaemonCall(ctx, conn, "Notify", n.AppName, n.ReplacesID, n.AppIcon, n.Summary, n.Body,
		actions, hints, int32(n.ExpireTimeout/time.Millisecond)).Store(&id)
	if err != nil {
		return 0, fmt.Errorf("Notify: %w", err)
	}
	return id, nil
}

// ImageHint is the image-data hint of img.
func ImageHint(img *ImageData) fdnotify.Hint {
	return fdnotify.Hint{ID: "image-data", Variant: dbus.MakeVariant(*img)}
}
