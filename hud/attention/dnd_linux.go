package attention

import (
	"context"
	"fmt"

	"github.com/godbus/dbus/v5"
)

// BusProperty reads a property of the notification server's object on the
// session bus, for DND.Property. The bus connection is the process's
// shared one (the tray's icon and notifications use it too).
func BusProperty(ctx context.Context, iface, name string) (any, error) {
	conn, err := dbus.SessionBus()
	if err != nil {
		return nil, fmt.Errorf("the session bus: %w", err)
	}
	var v dbus.Variant
	err = conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications").
		CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0, iface, name).Store(&v)
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", iface, name, err)
	}
	return v.Value(), nil
}
