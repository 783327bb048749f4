package focus

import (
	"context"
	"errors"
	"fmt"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/assets"
)

// GNOMEShell asks hud's GNOME Shell extension (assets/gnome-shell) for
// the windows: GNOME lets no outside program raise or list them, not even
// through its own D-Bus interfaces (Introspect.GetWindows and Eval serve
// only its own tools), so the extension runs inside the shell and exports
// the two questions hud needs on the session bus, under the shell's name.
// The zero value calls on the session bus every part of hud shares.
type GNOMEShell struct {
	// Conn is the bus to call on; nil: the shared session bus
	// (dbus.SessionBus).
	Conn *dbus.Conn
}

// Where the extension answers: the shell's own connection, an object and
// an interface of hud's.
const (
	gnomeShellName  = "org.gnome.Shell"
	gnomeShellPath  = dbus.ObjectPath("/io/github/capacitor_hud/Shell")
	gnomeShellIface = "io.github.capacitor_hud.Shell1"
)

// ErrNoGNOMEExtension is what GNOMEShell returns when GNOME Shell runs
// without hud's extension: not installed, not enabled, or installed
// during this login, which a Wayland session loads only at the next one.
var ErrNoGNOMEExtension = errors.New("hud's GNOME Shell extension is not running")

// gnomeExtensionHint says how to get the extension running.
const gnomeExtensionHint = "'hud install' puts it in place; enable it with 'gnome-extensions enable " +
	assets.GNOMEExtensionUUID + "', then log out and in again (GNOME on Wayland loads a new extension only at login)"

// Name names the compositor in the log and in doctor.
func (GNOMEShell) Name() string { return "gnome-shell" }

// Activate asks the extension to bring forward the window of the first of
// pids that owns one; it answers with that process, 0 when none does.
func (g GNOMEShell) Activate(ctx context.Context, pids []int) error {
	asked := make([]uint32, 0, len(pids))
	for _, pid := range pids {
		if pid > 0 {
			asked = append(asked, uint32(pid))
		}
	}
	if len(asked) == 0 {
		return fmt.Errorf("%w: no process to look for", ErrNoWindow)
	}
	got, err := g.call(ctx, "Activate", asked)
	if err != nil {
		return err
	}
	if got == 0 {
		return fmt.Errorf("%w (GNOME Shell has no window of processes %v)", ErrNoWindow, asked)
	}
	return nil
}

// Focused returns the process that owns the focused window, as the shell
// knows it; 0 when no window has the focus.
func (g GNOMEShell) Focused(ctx context.Context) (int, error) {
	pid, err := g.call(ctx, "FocusedPid")
	return int(pid), err
}

// call calls method of the extension under ctx; both methods answer with
// one process id.
func (g GNOMEShell) call(ctx context.Context, method string, args ...any) (uint32, error) {
	conn := g.Conn
	if conn == nil {
		var err error
		if conn, err = dbus.SessionBus(); err != nil {
			return 0, fmt.Errorf("connecting to the session bus: %w", err)
		}
	}
	var pid uint32
	err := conn.Object(gnomeShellName, gnomeShellPath).
		CallWithContext(ctx, gnomeShellIface+"."+method, 0, args...).Store(&pid)
	if err != nil {
		return 0, gnomeShellError(method, err)
	}
	return pid, nil
}

// gnomeShellError words a failed call: no shell on the bus, a shell
// without the extension (GDBus answers UnknownMethod for an object path
// nothing exports; other servers UnknownObject or UnknownInterface), or
// anything else, as it came.
func gnomeShellError(method string, err error) error {
	var derr dbus.Error
	if !errors.As(err, &derr) {
		return fmt.Errorf("asking GNOME Shell (%s): %w", method, err)
	}
	switch derr.Name {
	case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
		return fmt.Errorf("GNOME Shell is not on the session bus: %w", err)
	case "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownObject",
		"org.freedesktop.DBus.Error.UnknownInterface":
		return fmt.Errorf("%w (%s): %s", ErrNoGNOMEExtension, derr.Error(), gnomeExtensionHint)
	}
	return fmt.Errorf("asking GNOME Shell (%s): %w", method, err)
}
