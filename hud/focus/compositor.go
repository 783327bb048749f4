package focus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/capacitor-hud/hud/internal/xdg"
)

// Compositor is the desktop's own view of its windows. On Wayland it is
// the only one: no client may raise, or even list, another client's
// windows, so a native Wayland terminal is found and raised only by asking
// the compositor (sway's and Hyprland's IPC sockets, KWin's scripting,
// hud's GNOME Shell extension). It knows XWayland windows too, and raises
// them where an X11 activation request would only mark them urgent
// (sway).
type Compositor interface {
	// Name names the compositor in the log and in doctor ("sway").
	Name() string
	// Activate focuses the window of the first of pids (a process and its
	// ancestors, nearest first) that owns one, bringing it to the current
	// workspace. The error wraps ErrNoWindow when none of them does.
	Activate(ctx context.Context, pids []int) error
	// Focused returns the process that owns the focused window, 0 when no
	// window has the focus.
	Focused(ctx context.Context) (int, error)
}

// ErrNoWindow is what a Compositor returns when none of the processes
// asked about owns a window: the terminal is elsewhere (another display,
// a remote machine), and the next way is tried.
var ErrNoWindow = errors.New("no window belongs to the session's terminal")

// DetectCompositor returns the compositor this session runs, from the
// variables it sets for its clients: $SWAYSOCK (sway; i3's $I3SOCK
// speaks the same protocol, without processes in its tree),
// $HYPRLAND_INSTANCE_SIGNATURE, and $XDG_CURRENT_DESKTOP for KDE Plasma
// (KWin) and GNOME. nil when it is none of these (an X11 window manager:
// X11 serves there). Nothing is asked here; a compositor that does not
// answer fails its first call.
func DetectCompositor(getenv func(string) string) Compositor {
	uid := os.Getuid()
	switch {
	case getenv("SWAYSOCK") != "":
		return Sway{Socket: getenv("SWAYSOCK"), UID: uid}
	case getenv("HYPRLAND_INSTANCE_SIGNATURE") != "":
		return Hyprland{Socket: HyprlandSocket(getenv), UID: uid}
	case getenv("I3SOCK") != "":
		return Sway{Socket: getenv("I3SOCK"), UID: uid}
	case xdg.DesktopIs(getenv("XDG_CURRENT_DESKTOP"), "KDE"):
		return KWin{}
	case xdg.DesktopIs(getenv("XDG_CURRENT_DESKTOP"), "GNOME"):
		return GNOMEShell{}
	}
	return nil
}

// Desktop raises the window of a process's terminal the ways this desktop
// allows: through its compositor where it has one, else (or when the
// compositor cannot) by X11, which also reaches XWayland windows.
type Desktop struct {
	// Compositor is nil where the desktop has none hud knows.
	Compositor Compositor
	X11        X11
	// Ancestry lists pid and its ancestors, nearest first; nil: the
	// running system's (Ancestry).
	Ancestry func(pid int) []int
}

// Raise activates the window of pid's nearest ancestor that has one.
func (d Desktop) Raise(ctx context.Context, pid int, hint string) error {
	if d.Compositor == nil {
		return d.X11.Raise(ctx, pid, hint)
	}
	pids := lineage(d.Ancestry, pid)
	if len(pids) == 0 {
		return fmt.Errorf("process %d is gone", pid)
	}
	// A terminal with several windows in one process (kitty's OS
	// windows, foot's server) has them all under one pid, and the
	// compositor cannot tell which shows the session: one of them that
	// has the focus already (kitty just focused it) is left as it is.
	if f, err := d.Compositor.Focused(ctx); err == nil && slices.Contains(pids, f) {
		return nil
	}
	err := d.Compositor.Activate(ctx, pids)
	if err == nil {
		return nil
	}
	err = fmt.Errorf("%s: %w", d.Compositor.Name(), err)
	if ctx.Err() != nil {
		return err
	}
	xerr := d.X11.Raise(ctx, pid, hint)
	if xerr == nil {
		return nil
	}
	if errors.Is(xerr, ErrSkip) {
		return err
	}
	return errors.Join(err, fmt.Errorf("x11: %w", xerr))
}

// focusedIn reports which of lines (each a process and its ancestors,
// nearest first) holds focused, the process that owns the focused window:
// the index of the line, -1 for none.
func focusedIn(lines [][]int, focused int) int {
	if focused <= 0 {
		return -1
	}
	for i, pids := range lines {
		if slices.Contains(pids, focused) {
			return i
		}
	}
	return -1
}
