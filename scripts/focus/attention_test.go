package focus

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Notifications fit where the person looks: a permission dialog of the
// session whose xterm is the active window gives no notification (none
// reaches the bus) while the menu shows it waiting; the same dialog in a
// terminal not in front gives one; a session held back so gets its "still
// waiting" reminder once the person has left its terminal; and with dunst
// paused (Do Not Disturb) nothing is sent at all.
func TestNotificationsFitWhereThePersonLooks(t *testing.T) {
	r := startNotifying(t)
	const remindAfter = 4 * time.Second
	writeFile(t, filepath.Join(r.home, ".config", "hud", "config.toml"),
		fmt.Sprintf("[notifications]\nstill_waiting_after = %q\n", remindAfter.String()))
	alpha := newTerminalSession(t, r.home, "alpha", "f0c05e55-0000-4000-8000-0000000000a1")
	alpha.win = r.d.terminal(t, r.home, "claude-alpha", "sh", "-c", alpha.command(r.hook))
	beta := newTerminalSession(t, r.home, "beta", "f0c05e55-0000-4000-8000-0000000000b1")
	beta.win = r.d.terminal(t, r.home, "claude-beta", "sh", "-c", beta.command(r.hook))
	waitSession(t, r.hud, r.home, alpha.id)
	waitSession(t, r.hud, r.home, beta.id)
	item, logPath := r.startTray(t)
	d, home, hud, notes := r.d, r.home, r.hud, r.notes
	waitRow(t, item, "alpha")

	// The person looks at alpha's terminal when its dialog comes.
	run(t, home, d.display, hud, "focus", alpha.id)
	d.waitActive(t, alpha.win)
	alphaWaits := time.Now()
	alpha.send(t, "PermissionRequest")
	waitRow(t, item, "alpha — waiting")
	time.Sleep(1500 * time.Millisecond) // the notification would be out by now
	if got := notes.summaries(); len(got) != 0 {
		t.Fatalf("notified about the session in front: %q", got)
	}

	// Beta's dialog comes while they look at alpha's terminal: it is shown.
	beta.send(t, "PermissionRequest")
	notes.waitFor(t, "beta needs you")

	// They leave alpha's terminal for beta's while alpha still waits:
	// alpha's reminder comes as usual; beta's, in front now, does not.
	run(t, home, d.display, hud, "focus", beta.id)
	d.waitActive(t, beta.win)
	betaWaits := time.Now()
	notes.waitFor(t, "alpha is still waiting")
	time.Sleep(time.Until(betaWaits.Add(remindAfter + 1500*time.Millisecond)))
	if got, want := notes.summaries(), []string{"beta needs you", "alpha is still waiting"}; !equal(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
	if alphaWaits.Add(remindAfter).After(time.Now()) {
		t.Fatal("setup: the reminder came early")
	}

	// Do Not Disturb: dunst paused, alpha (not in front) waits again.
	ctl := exec.Command("dunstctl", "set-paused", "true")
	ctl.Env = r.env
	if out, err := ctl.CombinedOutput(); err != nil {
		t.Fatalf("dunstctl set-paused: %v\n%s", err, out)
	}
	alpha.send(t, "UserPromptSubmit")
	waitRow(t, item, "alpha — working")
	alpha.send(t, "PermissionRequest")
	waitRow(t, item, "alpha — waiting")
	time.Sleep(1500 * time.Millisecond)
	if got := notes.summaries(); len(got) != 2 {
		t.Fatalf("notified while dunst was paused: %q", got)
	}
	b, _ := os.ReadFile(logPath)
	for _, why := range []string{"held back (you are looking at its terminal): alpha needs you", "held back (dunst is paused"} {
		if !strings.Contains(string(b), why) {
			t.Errorf("hud's log does not say %q", why)
		}
	}
}

// In tmux, "in front" is the pane: with its window current in the tmux
// session an xterm in front shows, no notification; with another tmux
// window current in that same xterm, one.
func TestNoNotificationForTheTmuxPaneInFront(t *testing.T) {
	r := startNotifying(t)
	s := newTerminalSession(t, r.home, "gamma", "f0c05e55-0000-4000-8000-0000000000c1")
	sock := filepath.Join(r.home, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		return strings.TrimSpace(run(t, r.home, r.d.display, "tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...))
	}
	tmux("new-session", "-d", "-s", "work", "-x", "80", "-y", "24", s.command(r.hook))
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	waitSession(t, r.hud, r.home, s.id)
	client := r.d.terminal(t, r.home, "tmux-client", "tmux", "-S", sock, "attach-session", "-t", "work")
	r.d.waitFor(t, "the tmux client", func() bool { return tmux("list-clients") != "" })
	item, _ := r.startTray(t)
	waitRow(t, item, "gamma")
	run(t, r.home, r.d.display, r.hud, "focus", s.id)
	r.d.waitActive(t, client)

	s.send(t, "PermissionRequest")
	waitRow(t, item, "gamma — waiting")
	time.Sleep(1500 * time.Millisecond)
	if got := r.notes.summaries(); len(got) != 0 {
		t.Fatalf("notified about the pane in front: %q", got)
	}

	// Another tmux window becomes current: the xterm is still in front,
	// the pane is not.
	tmux("new-window", "-t", "work", "cat")
	s.send(t, "UserPromptSubmit")
	waitRow(t, item, "gamma — working")
	s.send(t, "PermissionRequest")
	r.notes.waitFor(t, "gamma needs you")
	if r.d.active(t) != client {
		t.Errorf("setup: the tmux client's xterm is no longer in front")
	}
}

// In kitty, "in front" is the kitty window: the active one of the active
// tab of the focused OS window. Another tab made current, the session's
// next dialog is announced.
func TestNoNotificationForTheKittyWindowInFront(t *testing.T) {
	r := startNotifying(t)
	need(t, [][2]string{{"kitty", "kitty"}})
	s := newTerminalSession(t, r.home, "delta", "f0c05e55-0000-4000-8000-0000000000d1")
	to := "unix:" + filepath.Join(r.home, "kitty.sock")
	k := exec.Command("kitty", "--config", "NONE", "-o", "allow_remote_control=yes", "--listen-on", to, "sh", "-c", s.command(r.hook))
	// Xvfb has no GPU: Mesa's software renderer draws.
	k.Env = append(personEnv(r.home, r.d.display), "LIBGL_ALWAYS_SOFTWARE=1")
	k.Dir = r.home
	start(t, k)
	win := r.d.windowOf(t, "kitty", k.Process.Pid)
	waitSession(t, r.hud, r.home, s.id)
	item, _ := r.startTray(t)
	waitRow(t, item, "delta")
	run(t, r.home, r.d.display, r.hud, "focus", s.id)
	r.d.waitActive(t, win)
	// kitty hears of its focus a moment after the window manager gives it.
	r.d.waitFor(t, "kitty to know it has the focus", func() bool {
		var osWindows []struct {
			IsFocused bool `json:"is_focused"`
		}
		out := run(t, r.home, r.d.display, "kitty", "@", "--to", to, "ls")
		return json.Unmarshal([]byte(out), &osWindows) == nil && len(osWindows) == 1 && osWindows[0].IsFocused
	})

	s.send(t, "PermissionRequest")
	waitRow(t, item, "delta — waiting")
	time.Sleep(1500 * time.Millisecond)
	if got := r.notes.summaries(); len(got) != 0 {
		t.Fatalf("notified about the kitty window in front: %q", got)
	}

	run(t, r.home, r.d.display, "kitty", "@", "--to", to, "launch", "--type=tab", "sh", "-c", "exec cat")
	s.send(t, "UserPromptSubmit")
	waitRow(t, item, "delta — working")
	s.send(t, "PermissionRequest")
	r.notes.waitFor(t, "delta needs you")
}

// A terminal with tabs says nothing outside it of which tab it shows
// (kitty without remote control here; GNOME Terminal and Konsole alike):
// its window in front, a session in a tab behind is announced.
func TestNotificationForATabBehind(t *testing.T) {
	r := startNotifying(t)
	need(t, [][2]string{{"kitty", "kitty"}})
	s := newTerminalSession(t, r.home, "zeta", "f0c05e55-0000-4000-8000-0000000000f1")
	session := filepath.Join(r.home, "tabs.kitty")
	writeFile(t, session, "new_tab claude\nlaunch sh -c '"+s.command(r.hook)+"'\nnew_tab other\nlaunch sh -c 'exec cat'\nfocus\n")
	k := exec.Command("kitty", "--config", "NONE", "--session", session)
	k.Env = append(personEnv(r.home, r.d.display), "LIBGL_ALWAYS_SOFTWARE=1")
	k.Dir = r.home
	start(t, k)
	win := r.d.windowOf(t, "kitty", k.Process.Pid)
	waitSession(t, r.hud, r.home, s.id)
	item, _ := r.startTray(t)
	waitRow(t, item, "zeta")
	run(t, r.home, r.d.display, r.hud, "focus", s.id)
	r.d.waitActive(t, win)

	s.send(t, "PermissionRequest")
	r.notes.waitFor(t, "zeta needs you")
}
