package tray

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"fyne.io/systray"
	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/hud/app"
)

// watcherName is the service of the tray host (StatusNotifierWatcher).
const watcherName = "org.kde.StatusNotifierWatcher"

// trayHostWait is how long a desktop may take to start its tray host
// (hud may autostart before the panel) before the person hears of it.
const trayHostWait = 5 * time.Second

// checkSessionBus fails when there is no session bus: systray would then
// log one line and leave every setter silently doing nothing.
//
// Without DBUS_SESSION_BUS_ADDRESS and without $XDG_RUNTIME_DIR/bus,
// godbus "autolaunches" a private bus with dbus-launch (when installed):
// a bus no tray host or notification daemon is on, and a daemon left
// running after we exit. That is no session bus, so say so before anything
// connects.
func checkSessionBus() error {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		runtimeDir := os.Getenv("XDG_RUNTIME_DIR")
		if runtimeDir == "" {
			return fmt.Errorf("%w: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set", app.ErrNoSessionBus)
		}
		if _, err := os.Stat(filepath.Join(runtimeDir, "bus")); err != nil {
			return fmt.Errorf("%w: DBUS_SESSION_BUS_ADDRESS is not set and there is no %s/bus", app.ErrNoSessionBus, runtimeDir)
		}
	}
	// dbus.SessionBus is the shared connection systray uses as well.
	if _, err := dbus.SessionBus(); err != nil {
		return fmt.Errorf("%w: %v", app.ErrNoSessionBus, err)
	}
	return nil
}

// watchTrayHost sends one NoTrayHost event when no StatusNotifierWatcher
// appears on the bus within trayHostWait. systray registers again by
// itself when one appears later.
func watchTrayHost(send func(app.Event)) {
	conn, err := dbus.SessionBus()
	if err != nil {
		return
	}
	match := []dbus.MatchOption{
		dbus.WithMatchObjectPath("/org/freedesktop/DBus"),
		dbus.WithMatchInterface("org.freedesktop.DBus"),
		dbus.WithMatchMember("NameOwnerChanged"),
		dbus.WithMatchArg(0, watcherName),
	}
	// Subscribe before asking, so a host starting in between is not missed.
	signals := make(chan *dbus.Signal, 16)
	if err := conn.AddMatchSignal(match...); err == nil {
		conn.Signal(signals)
		defer func() {
			conn.RemoveSignal(signals)
			_ = conn.RemoveMatchSignal(match...)
		}()
	}
	if hasOwner(conn, watcherName) {
		return
	}
	deadline := time.NewTimer(trayHostWait)
	defer deadline.Stop()
	for {
		select {
		case sig := <-signals:
			if sig != nil && sig.Name == "org.freedesktop.DBus.NameOwnerChanged" && len(sig.Body) == 3 {
				if name, _ := sig.Body[0].(string); name == watcherName {
					if owner, _ := sig.Body[2].(string); owner != "" {
						return
					}
				}
			}
		case <-deadline.C:
			if !hasOwner(conn, watcherName) {
				send(app.Event{Kind: app.NoTrayHost, Message: app.NoTrayHostMessage})
			}
			return
		}
	}
}

func hasOwner(conn *dbus.Conn, name string) bool {
	var has bool
	err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&has)
	return err == nil && has
}

// setTitle sets the item's Title. Linux hosts mostly show it only where
// they list tray items by name, so it is never empty there.
func setTitle(title string) {
	if title == "" {
		title = "hud"
	}
	systray.SetTitle(title)
}

// waitExported returns once systray has put the item's properties on the
// bus. In v1.12.2 onReady runs before the item is exported, and a SetIcon
// or SetTooltip that lands while nativeStart exports the properties is
// stored but never published (props is still nil when the setter looks,
// and the exported values were read before). Seen here: a first draw
// slowed by a file lock left the panel with no icon and no tooltip. So the
// loop draws only once our own item answers on the bus, plus a moment for
// nativeStart to finish the few exports that follow.
func waitExported() {
	conn, err := dbus.SessionBus()
	if err != nil || len(conn.Names()) == 0 {
		return
	}
	self := conn.Object(conn.Names()[0], "/StatusNotifierItem")
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := self.GetProperty("org.kde.StatusNotifierItem.Id"); err == nil {
			time.Sleep(50 * time.Millisecond)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
