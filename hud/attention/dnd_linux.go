package attention

import (
	"context"
	"fmt"
	"time"

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

// MakoModes lists mako's active modes, for DND.Modes; an error where the
// notification server is not mako (or a mako before modes were listed).
func MakoModes(ctx context.Context) ([]string, error) {
	conn, err := dbus.SessionBus()
	if err != nil {
		return nil, fmt.Errorf("the session bus: %w", err)
	}
	var modes []string
	err = conn.Object("org.freedesktop.Notifications", "/fr/emersion/Mako").
		CallWithContext(ctx, "fr.emersion.Mako.ListModes", 0).Store(&modes)
	if err != nil {
		return nil, fmt.Errorf("mako's modes: %w", err)
	}
	return modes, nil
}

// BusIdle reads the idle time from the desktop's session bus where the X
// server cannot tell it (a Wayland session): the freedesktop ScreenSaver's
// GetSessionIdleTime (KDE Plasma, Xfce), else GNOME Mutter's idle monitor.
func BusIdle(ctx context.Context) (time.Duration, error) {
	conn, err := dbus.SessionBus()
	if err != nil {
		return 0, fmt.Errorf("the session bus: %w", err)
	}
	var ms uint32
	err = conn.Object("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver").
		CallWithContext(ctx, "org.freedesktop.ScreenSaver.GetSessionIdleTime", 0).Store(&ms)
	if err == nil {
		return time.Duration(ms) * time.Millisecond, nil
	}
	var ms64 uint64
	err2 := conn.Object("org.gnome.Mutter.IdleMonitor", "/org/gnome/Mutter/IdleMonitor/Core").
		CallWithContext(ctx, "org.gnome.Mutter.IdleMonitor.GetIdletime", 0).Store(&ms64)
	if err2 == nil {
		return time.Duration(ms64) * time.Millisecond, nil
	}
	return 0, fmt.Errorf("no idle time on the session bus (org.freedesktop.ScreenSaver: %v; org.gnome.Mutter.IdleMonitor: %v)", err, err2)
}
