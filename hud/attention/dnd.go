package attention

import (
	"context"
	"slices"
	"strings"

	"github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/internal/xdg"
)

// DND reads the desktop's Do Not Disturb from wherever it keeps it: the
// notification server's own inhibition (the Inhibited property of
// org.freedesktop.Notifications, which KDE Plasma and others keep), dunst
// paused (its "paused" property), GNOME's banners off (gsettings
// org.gnome.desktop.notifications show-banners, read on GNOME only: the
// key keeps its value when the person moves to another desktop).
type DND struct {
	// Property reads a property of the notification server's object
	// (/org/freedesktop/Notifications) on the session bus; an error (no
	// such property, no server) means that server keeps none.
	Property func(ctx context.Context, iface, name string) (any, error)
	// Modes lists mako's active modes (fr.emersion.Mako.ListModes); an
	// error means the server is not mako. nil: not asked.
	Modes func(ctx context.Context) ([]string, error)
	// Run runs a command and returns its output (focus.Exec); nil: none.
	Run focus.Runner
	// Getenv reads XDG_CURRENT_DESKTOP.
	Getenv func(string) string
}

// The properties that say Do Not Disturb, in the order asked.
var dndProperties = []struct{ iface, name, why string }{
	{"org.freedesktop.Notifications", "Inhibited", "the notification server is inhibited (Do Not Disturb)"},
	{"org.dunstproject.cmd0", "paused", "dunst is paused (dunstctl set-paused false resumes it)"},
}

// Reason says why the desktop holds notifications back now, "" when it
// does not. A place that cannot be read counts as not holding back; its
// error is not returned (most desktops keep only one of them).
func (d DND) Reason(ctx context.Context) (string, error) {
	if d.Property != nil {
		for _, p := range dndProperties {
			v, err := d.Property(ctx, p.iface, p.name)
			if err != nil {
				if ctx.Err() != nil {
					return "", ctx.Err()
				}
				continue
			}
			if on, ok := v.(bool); ok && on {
				return p.why, nil
			}
		}
	}
	if d.Modes != nil {
		modes, err := d.Modes(ctx)
		if err != nil && ctx.Err() != nil {
			return "", ctx.Err()
		}
		if slices.ContainsFunc(modes, isDNDMode) {
			return "mako is in its do-not-disturb mode (makoctl mode -r do-not-disturb leaves it)", nil
		}
	}
	if d.Run != nil && d.Getenv != nil && xdg.DesktopIs(d.Getenv("XDG_CURRENT_DESKTOP"), "GNOME") {
		out, err := d.Run(ctx, focus.Command{Name: "gsettings", Args: []string{"get", "org.gnome.desktop.notifications", "show-banners"}})
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(string(out)) == "false" {
			return "GNOME's notification banners are off (Do Not Disturb)", nil
		}
	}
	return "", nil
}

// isDNDMode reports whether a mako mode is the person's do-not-disturb:
// the name mako's documentation gives it, or its usual short form.
func isDNDMode(mode string) bool {
	return strings.EqualFold(mode, "do-not-disturb") || strings.EqualFold(mode, "dnd")
}
