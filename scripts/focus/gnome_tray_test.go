package focus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// onGNOME starts GNOME Shell, itself the notification server and its
// AppIndicator extension the tray host, and returns the notification rig
// on it, sessions alpha in foot (native Wayland) and beta in xterm
// (XWayland), and a third window, focused.
func onGNOME(t *testing.T) (*gnomeDesk, *notifying, *terminalSession, *terminalSession, int) {
	t.Helper()
	hud, hook := setupGNOME(t)
	if gnomeAppIndicator() == "" {
		msg := "no AppIndicator extension, the top bar's tray: apt-get install gnome-shell-extension-appindicator"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	home := newHome(t)
	d := startGNOME(t, home, hud, hook)
	// GNOME keeps a banner up until the person is active: a key lets the
	// shell's own, about running as root, go before hud's come.
	d.typeKey(t)
	d.stopTyping(t)
	waitName(t, d.conn, "org.kde.StatusNotifierWatcher")
	r := &notifying{hud: hud, hook: hook, home: home, env: d.env, conn: d.conn}
	r.notes = monitor(t, busOf(d.env))
	alpha := newTerminalSession(t, home, "alpha", "f0c05e55-0000-4000-8000-0000000007a1")
	alpha.pid = d.terminal(t, "foot", "claude-alpha", alpha.command(hook))
	beta := newTerminalSession(t, home, "beta", "f0c05e55-0000-4000-8000-0000000007b1")
	beta.pid = d.terminal(t, "xterm", "claude-beta", beta.command(hook))
	waitSession(t, hud, home, alpha.id)
	waitSession(t, hud, home, beta.id)
	other := d.terminal(t, "foot", "other", "exec cat")
	return d, r, alpha, beta, other
}

// On GNOME under Wayland, notifications fit where the person looks: hud's
// icon shows in the top bar, a click on a session's row in its menu
// focuses the session's terminal; a session turning waiting while its terminal
// has the focus (foot, native Wayland; xterm, XWayland) sends no
// notification, the same while another window has it sends one, whose
// banner the shell shows; and with GNOME's banners off (its Do Not
// Disturb) none is sent at all.
func TestGNOMENotificationsFitWhereThePersonLooks(t *testing.T) {
	d, r, alpha, beta, other := onGNOME(t)
	item, logPath := r.startTray(t)
	waitRow(t, item, "alpha")

	for _, s := range []*terminalSession{alpha, beta} {
		name := filepath.Base(s.dir)
		// The person clicks its row in the top bar's menu: its terminal
		// comes forward.
		d.activate(t, other)
		if err := item.Click(waitRow(t, item, name)); err != nil {
			t.Fatal(err)
		}
		d.waitFocused(t, s.pid, withinClick)
		before := len(r.notes.summaries())
		s.send(t, "PermissionRequest")
		waitRow(t, item, name+" — waiting")
		time.Sleep(1500 * time.Millisecond) // the notification would be out by now
		if got := r.notes.summaries(); len(got) != before {
			t.Fatalf("notified about %s, whose terminal (process %d) has the focus: %q; hud's extension says process %d has it",
				name, s.pid, got, d.focused(t))
		}
		if s == alpha {
			d.shotTopBar(t, item, "gnome-topbar.png")
		}

		d.activate(t, other)
		s.send(t, "UserPromptSubmit")
		waitRow(t, item, name+" — working")
		s.send(t, "PermissionRequest")
		r.notes.waitFor(t, name+" needs you")
		if s == alpha {
			time.Sleep(time.Second) // the banner slides in
			t.Logf("alpha's banner over another window: %s", d.shot(t, "gnome-notification.png"))
		}
	}

	d.bannersOff(t)
	alpha.send(t, "UserPromptSubmit")
	waitRow(t, item, "alpha — working")
	alpha.send(t, "PermissionRequest")
	waitRow(t, item, "alpha — waiting")
	time.Sleep(1500 * time.Millisecond)
	if got, want := r.notes.summaries(), []string{"alpha needs you", "beta needs you"}; !equal(got, want) {
		t.Fatalf("notifications %q, want %q (nothing with the banners off)", got, want)
	}
	b, _ := os.ReadFile(logPath)
	for _, why := range []string{"held back (you are looking at its terminal): alpha needs you",
		"held back (you are looking at its terminal): beta needs you", "held back (GNOME's notification banners are off"} {
		if !strings.Contains(string(b), why) {
			t.Errorf("hud's log does not say %q", why)
		}
	}
}

// On GNOME the away push follows Mutter's idle monitor on the session bus
// (GNOME 43 offers no Wayland idle protocol): while the person types into
// the focused foot, none; once they stop, one after push_after, and no
// second one; with GNOME's banners off (its Do Not Disturb), none for the
// next wait.
func TestGNOMEAwayPush(t *testing.T) {
	t.Parallel() // it mostly waits: the other pushes wait beside it
	d, r, alpha, _, _ := onGNOME(t)
	got := listenForPushes(t, r.home, waylandPushAfter)
	item, _ := r.startTray(t)
	waitRow(t, item, "alpha")
	d.click(t, r.hud, d.env, alpha) // typing goes to alpha's foot (the stand-in reads nothing from it)
	d.checkTypingCounts(t)
	awayPushOnWayland(t, item, alpha, got, func() { d.typeKey(t) }, func() { d.bannersOff(t) })
}

// bannersOff turns GNOME's notification banners off, its Do Not Disturb,
// in the session's dconf.
func (d *gnomeDesk) bannersOff(t *testing.T) {
	t.Helper()
	runIn(t, d.env, d.home, "gsettings", "set", "org.gnome.desktop.notifications", "show-banners", "false")
}

// Mutter's remote desktop (org.gnome.Mutter.RemoteDesktop), through which
// the test types as the person: a session of it feeds keys (evdev codes)
// to the shell as a virtual keyboard's. Mutter ends a session when its
// caller leaves the bus, so one is kept for the test.
const (
	gnomeRemoteDesktop        = "org.gnome.Mutter.RemoteDesktop"
	gnomeRemoteDesktopSession = gnomeRemoteDesktop + ".Session"
)

// typeKey presses and releases a key in the focused window through
// Mutter's remote desktop, and waits until Mutter's idle monitor counts
// it, so that a key Mutter ignored fails the test rather than pass for
// the person's absence. Mutter counts from when it handled the key, a
// moment before the caller's next look at the clock; hud's own read of
// the idle time and its Do Not Disturb check before a push take longer.
func (d *gnomeDesk) typeKey(t *testing.T) {
	t.Helper()
	if d.keys == nil {
		var path dbus.ObjectPath
		rd := d.conn.Object(gnomeRemoteDesktop, "/org/gnome/Mutter/RemoteDesktop")
		if err := rd.Call(gnomeRemoteDesktop+".CreateSession", 0).Store(&path); err != nil {
			t.Fatalf("Mutter's remote desktop: %v", err)
		}
		keys := d.conn.Object(gnomeRemoteDesktop, path)
		if err := keys.Call(gnomeRemoteDesktopSession+".Start", 0).Err; err != nil {
			t.Fatalf("starting a remote desktop session: %v", err)
		}
		t.Cleanup(func() { keys.Call(gnomeRemoteDesktopSession+".Stop", 0) })
		d.keys, d.sharing = keys, time.Now()
	}
	sent := time.Now()
	for _, pressed := range []bool{true, false} {
		if err := d.keys.Call(gnomeRemoteDesktopSession+".NotifyKeyboardKeycode", 0, uint32(keyY), pressed).Err; err != nil {
			t.Fatalf("typing through Mutter's remote desktop: %v", err)
		}
	}
	waitWithin(t, 2*time.Second, "Mutter's idle monitor to count the key", func() bool {
		return d.idle(t) <= time.Since(sent)
	})
}

// stopTyping ends the remote desktop session typeKey opened. The top bar
// shows a session while it lasts and for at least gnomeSharingShown.
func (d *gnomeDesk) stopTyping(t *testing.T) {
	t.Helper()
	if d.keys == nil {
		return
	}
	if err := d.keys.Call(gnomeRemoteDesktopSession+".Stop", 0).Err; err != nil {
		t.Fatalf("stopping the remote desktop session: %v", err)
	}
	d.keys = nil
	d.sharing = d.sharing.Add(gnomeSharingShown)
}

// gnomeSharingShown is how long the top bar shows a remote desktop
// session at least (MIN_SHARED_INDICATOR_VISIBLE_TIME_US in GNOME Shell's
// status/remoteAccess.js), with a margin.
const gnomeSharingShown = 5*time.Second + 200*time.Millisecond

// checkTypingCounts fails the test unless Mutter counts typeKey as the
// person's input: once the idle time it tells is past a second, a key
// brings it back to about none.
func (d *gnomeDesk) checkTypingCounts(t *testing.T) {
	t.Helper()
	waitUntil(t, "Mutter to say the person is idle", func() bool { return d.idle(t) > time.Second })
	before := d.idle(t)
	d.typeKey(t)
	if after := d.idle(t); after > 200*time.Millisecond {
		t.Fatalf("Mutter's idle time is %v after a key, %v before", after, before)
	}
}

// idle is the idle time Mutter's idle monitor tells on the session bus,
// where hud reads it on GNOME.
func (d *gnomeDesk) idle(t *testing.T) time.Duration {
	t.Helper()
	var ms uint64
	err := d.conn.Object("org.gnome.Mutter.IdleMonitor", "/org/gnome/Mutter/IdleMonitor/Core").
		Call("org.gnome.Mutter.IdleMonitor.GetIdletime", 0).Store(&ms)
	if err != nil {
		t.Fatalf("Mutter's idle monitor: %v", err)
	}
	return time.Duration(ms) * time.Millisecond
}
