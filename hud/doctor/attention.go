package doctor

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/text"
)

// Attention is what the checks of hud/attention's parts ask the desktop.
type Attention struct {
	// HeldBack says why the desktop holds notifications back now, ""
	// when it does not (attention.DND.Reason).
	HeldBack func(ctx context.Context) (string, error)
	// Display is the X display the tray reads the active window and the
	// idle time from; "" for none.
	Display string
	// Wayland says the session is a Wayland one ($WAYLAND_DISPLAY).
	Wayland bool
	// Compositor names the compositor hud asks about windows
	// (focus.DetectCompositor), "" where it knows none; Focused asks it
	// which process owns the focused window.
	Compositor string
	Focused    func(ctx context.Context) (int, error)
	// Idle reads how long the person has not touched the keyboard or the
	// mouse, and says from where (attention.IdleSources.Which).
	Idle func(ctx context.Context) (string, time.Duration, error)
	// Player says how sounds are played (attention.Player), "" when
	// nothing here plays them.
	Player string
	// RelativePlayer names a player found only through a relative PATH
	// entry, which hud never runs (attention.RelativeOnly).
	RelativePlayer string
}

// attentionTimeout bounds each question to the desktop.
const attentionTimeout = 2 * time.Second

// checkDND says when the desktop holds hud's notifications back, and why.
func checkDND(env *Env) []Finding {
	a := env.Attention
	if a == nil || a.HeldBack == nil || env.Bus == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), attentionTimeout)
	defer cancel()
	why, err := a.HeldBack(ctx)
	switch {
	case err != nil:
		return []Finding{warn("check the session bus (busctl --user list)", "cannot tell whether the desktop says Do Not Disturb: %v", err)}
	case why != "":
		return []Finding{warn("turn Do Not Disturb off to see hud's notifications (the menu and the icon show everything meanwhile)",
			"notifications are held back: %s", why)}
	}
	return []Finding{ok("the desktop does not say Do Not Disturb: notifications are shown")}
}

// checkFocusAware says whether hud can bring a session's terminal forward
// and tell the terminal in front (to spare the person notifications about
// the session they look at), and through what: the compositor where there
// is one hud knows, else the X server.
func checkFocusAware(env *Env) []Finding {
	a := env.Attention
	if a == nil {
		return nil
	}
	if a.Compositor != "" && a.Focused != nil {
		ctx, cancel := context.WithTimeout(context.Background(), attentionTimeout)
		defer cancel()
		if _, err := a.Focused(ctx); err != nil {
			return []Finding{warn(compositorHint(a.Compositor),
				"cannot ask %s about its windows (%v): a click opens the session's folder, and every notification is shown", a.Compositor, err)}
		}
		return []Finding{ok("%s: a click focuses the session's terminal, and no notification comes for the terminal in front (Wayland and XWayland windows; tmux and kitty panes too)", a.Compositor)}
	}
	if a.Wayland {
		msg := "a Wayland compositor hud cannot ask about windows (it asks sway, Hyprland, KWin and GNOME Shell): a click on a session in a Wayland terminal opens its folder, and every notification is shown"
		if a.Display != "" {
			msg += "; XWayland terminals (X display " + a.Display + ") work"
		}
		return []Finding{warn("run Claude Code in tmux or kitty (their panes are found on any desktop), or in an XWayland terminal", "%s", msg)}
	}
	if a.Display == "" {
		return []Finding{ok("no X display: hud cannot tell which terminal is in front, so every notification is shown")}
	}
	return []Finding{ok("no notification for a session whose terminal is in front (X display %s; tmux and kitty panes too)", a.Display)}
}

// compositorHint says what makes the compositor answer.
func compositorHint(name string) string {
	switch name {
	case "gnome-shell":
		return "run hud install (it puts hud's GNOME Shell extension in place), then gnome-extensions enable hud@capacitor-hud.github.io, and log out and in"
	case "kwin":
		return "KWin answers over the session bus (org.kde.KWin): run hud inside the Plasma session"
	}
	return "run hud inside the " + name + " session: its IPC socket comes from the environment ($SWAYSOCK, $HYPRLAND_INSTANCE_SIGNATURE)"
}

// checkSounds says how the waiting and done sounds are played.
func checkSounds(env *Env) []Finding {
	a := env.Attention
	if a == nil {
		return nil
	}
	cfg, _ := config.Load(env.ConfigPath, env.Getenv)
	n := cfg.Notifications
	if !n.WaitingSound && !n.DoneSound {
		return []Finding{ok("off: waiting_sound and done_sound are false")}
	}
	if a.Player == "" && a.RelativePlayer != "" {
		return []Finding{warn("put the directory that holds "+a.RelativePlayer+" in PATH as an absolute path",
			"waiting_sound or done_sound is on, but %s is found only through a relative PATH entry, and hud runs no program from one", a.RelativePlayer)}
	}
	if a.Player == "" {
		return []Finding{warn("install canberra-gtk-play (gnome-session-canberra / libcanberra-gtk3-module), or paplay with sound-theme-freedesktop",
			"waiting_sound or done_sound is on, but nothing here plays sounds")}
	}
	return []Finding{ok("waiting and done sounds play through %s", a.Player)}
}

// checkAwayPush says where the away push goes (never the URL whole: it may
// hold a token), whether the idle time can be read, and whether the file
// that holds the URL is private.
func checkAwayPush(env *Env) []Finding {
	cfg, _ := config.Load(env.ConfigPath, env.Getenv)
	n := cfg.Notifications
	if n.PushURL == "" {
		return []Finding{ok("off: push_url is empty")}
	}
	out := []Finding{ok("away push to %s after %s of waiting while you are away", config.RedactURL(n.PushURL), text.Duration(n.PushAfter))}
	if fi, err := os.Stat(env.ConfigPath); err == nil && fi.Mode().Perm()&0o077 != 0 {
		out = append(out, warn(fmt.Sprintf("chmod 600 %s", env.ConfigPath),
			"%s is %o and holds the push URL, which may carry a token: others can read it", env.ConfigPath, fi.Mode().Perm()))
	}
	a := env.Attention
	if a == nil || a.Idle == nil {
		return out
	}
	ctx, cancel := context.WithTimeout(context.Background(), attentionTimeout)
	defer cancel()
	from, idle, err := a.Idle(ctx)
	if err != nil {
		return append(out, warn("run the tray on a desktop that tells the idle time: a Wayland compositor with ext-idle-notify-v1 or org_kde_kwin_idle (sway, KWin, Hyprland), GNOME (Mutter's idle monitor), or an X11 session",
			"cannot tell how long you have been away (%v): no push is sent", err))
	}
	if idle < time.Second {
		return append(out, ok("the idle time comes from %s", from))
	}
	return append(out, ok("the idle time comes from %s (you have been idle %s)", from, text.Duration(idle)))
}
