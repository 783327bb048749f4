package doctor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"
)

// dbusSession is the real session bus, on a private connection so closing
// it does not close the one the process shares with systray.
type dbusSession struct{ conn *dbus.Conn }

// SessionBus connects to the session bus named by the environment; close
// it with the returned func. It never autolaunches a bus (godbus would run
// dbus-launch when the address is unset, leaving a daemon behind): doctor
// reports the bus it finds, it does not make one.
func SessionBus(getenv func(string) string) (Bus, func(), error) {
	addr := getenv("DBUS_SESSION_BUS_ADDRESS")
	if addr == "" {
		if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
			if _, err := os.Stat(filepath.Join(dir, "bus")); err == nil {
				addr = "unix:path=" + filepath.Join(dir, "bus")
			}
		}
	}
	if addr == "" {
		return nil, func() {}, errors.New("DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus")
	}
	conn, err := dbus.Connect(addr)
	if err != nil {
		return nil, func() {}, err
	}
	return dbusSession{conn}, func() { conn.Close() }, nil
}

func (s dbusSession) NameHasOwner(name string) (bool, error) {
	var has bool
	err := s.conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&has)
	if err != nil {
		return false, fmt.Errorf("NameHasOwner %s: %w", name, err)
	}
	return has, nil
}
