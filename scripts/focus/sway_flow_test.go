package focus

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withinClick is how soon after the click the terminal must have the
// focus, as the compositor tells it.
const withinClick = 500 * time.Millisecond

// onSway starts sway with waybar and mako, and returns the notification
// rig on it, sessions alpha in foot (native Wayland) and beta in xterm
// (XWayland), and a third window, focused.
func onSway(t *testing.T) (*swayDesk, *notifying, *terminalSession, *terminalSession, int) {
	t.Helper()
	hud, hook := setupWayland(t, swayTools)
	home := newHome(t)
	s := startSway(t, home)
	startBar(t, home, s.env, s.conn)
	s.startMako(t, home)
	r := &notifying{hud: hud, hook: hook, home: home, env: s.env, conn: s.conn}
	r.notes = monitor(t, busOf(s.env))
	alpha := newTerminalSession(t, home, "alpha", "f0c05e55-0000-4000-8000-0000000005a1")
	alpha.pid = s.terminal(t, home, "foot", "claude-alpha", alpha.command(hook))
	beta := newTerminalSession(t, home, "beta", "f0c05e55-0000-4000-8000-0000000005b1")
	beta.pid = s.terminal(t, home, "xterm", "claude-beta", beta.command(hook))
	waitSession(t, hud, home, alpha.id)
	waitSession(t, hud, home, beta.id)
	other := s.terminal(t, home, "foot", "other", "exec cat")
	s.waitFocused(t, other, 5*time.Second)
	return s, r, alpha, beta, other
}

// setupWayland skips outside make focus-test, like setup, with the
// Wayland desktop's programs instead of the X11 one's.
func setupWayland(t *testing.T, programs [][2]string) (hud, hook string) {
	t.Helper()
	if os.Getenv("HUD_FOCUS") != "1" {
		t.Skip("needs a test desktop: run make focus-test")
	}
	need(t, programs)
	return os.Getenv("HUD_BIN"), os.Getenv("HUD_HOOK_BIN")
}

func busOf(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "DBUS_SESSION_BUS_ADDRESS="); ok {
			return v
		}
	}
	return ""
}

// On sway, a click on a session brings its terminal, a native Wayland
// foot and an XWayland xterm alike: from hud focus and from the tray's
// menu in waybar, each within withinClick, as sway tells the focus. A
// session whose terminal is gone says so: hud focus exits non-zero.
func TestSwayClickFocusesTheTerminal(t *testing.T) {
	s, r, alpha, beta, other := onSway(t)
	item, _ := r.startTray(t)
	for _, c := range []*terminalSession{alpha, beta} {
		s.run(t, r.home, r.hud, "focus", c.id)
		s.waitFocused(t, c.pid, withinClick)

		s.focus(t, other)
		if err := item.Click(waitRow(t, item, filepath.Base(c.dir))); err != nil {
			t.Fatal(err)
		}
		s.waitFocused(t, c.pid, withinClick)
		s.focus(t, other)
	}
	s.run(t, r.home, r.hud, "focus", beta.id)
	s.shot(t, "sway-focus.png")
}

// On sway, notifications fit where the person looks: a session whose
// foot (or xterm) has the focus when its dialog comes gets none; one whose
// terminal is behind gets one; with mako in its do-not-disturb mode none
// comes at all.
func TestSwayNotificationsFitWhereThePersonLooks(t *testing.T) {
	s, r, alpha, beta, _ := onSway(t)
	item, _ := r.startTray(t)
	waitRow(t, item, "beta")

	s.focus(t, alpha.pid)
	alpha.send(t, "PermissionRequest")
	waitRow(t, item, "alpha — waiting")
	time.Sleep(1500 * time.Millisecond)
	if got := r.notes.summaries(); len(got) != 0 {
		t.Fatalf("notified about the session in front: %q", got)
	}
	beta.send(t, "PermissionRequest")
	r.notes.waitFor(t, "beta needs you")
	s.shot(t, "sway-notification.png")

	// The person turns on mako's do-not-disturb mode: nothing more comes.
	s.run(t, r.home, "makoctl", "mode", "-a", "do-not-disturb")
	beta.send(t, "UserPromptSubmit")
	s.focus(t, beta.pid)
	s.focus(t, alpha.pid)
	beta.send(t, "PermissionRequest")
	waitRow(t, item, "beta — waiting")
	time.Sleep(1500 * time.Millisecond)
	if got, want := r.notes.summaries(), []string{"beta needs you"}; !equal(got, want) {
		t.Fatalf("notifications %q under do-not-disturb, want only %q", got, want)
	}
}

// On sway the away push follows the compositor's idle notifications: while
// the person types into the focused foot, none; once they stop, one after
// push_after, and no second one; with mako in do-not-disturb, none for the
// next wait.
func TestSwayAwayPush(t *testing.T) {
	t.Parallel() // it mostly waits: the other pushes wait beside it
	s, r, alpha, _, _ := onSway(t)
	got := listenForPushes(t, r.home, waylandPushAfter)
	item, _ := r.startTray(t)
	waitRow(t, item, "alpha")
	s.focus(t, alpha.pid) // typing goes to alpha's foot (the stand-in reads nothing from it)
	awayPushOnWayland(t, item, alpha, got, func() { typeKeys(t, s.env, "y") },
		func() { s.run(t, r.home, "makoctl", "mode", "-a", "do-not-disturb") })
}

// typeKeys types text into the focused window through the compositor's
// virtual keyboard, as input the compositor counts.
func typeKeys(t *testing.T, env []string, text string) {
	t.Helper()
	cmd := exec.Command("wtype", text)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wtype: %v\n%s", err, out)
	}
}

// On sway, a session in a tmux pane shown in a foot: the pane becomes
// current and sway focuses the foot of the client showing it.
func TestSwayClickSelectsTheTmuxPaneAndItsFoot(t *testing.T) {
	hud, hook := setupWayland(t, append(swayTools, [2]string{"tmux", "tmux"}))
	home := newHome(t)
	s := startSway(t, home)
	const id = "f0c05e55-0000-4000-8000-0000000005c1"
	ev := event(t, home, id)
	sock := filepath.Join(home, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		return strings.TrimSpace(s.run(t, home, "tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...))
	}
	pane := tmux("new-session", "-d", "-s", "work", "-x", "80", "-y", "24", "-P", "-F", "#{pane_id}", claude(ev, hook))
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	tmux("new-window", "-t", "work", "cat")
	waitSession(t, hud, home, id)
	client := s.terminal(t, home, "foot", "tmux-client", "exec tmux -S "+sock+" attach-session -t work")
	other := s.terminal(t, home, "foot", "other", "exec cat")
	s.waitFocused(t, other, 5*time.Second)

	s.run(t, home, hud, "focus", id)
	s.waitFocused(t, client, withinClick)
	if cur := tmux("display-message", "-p", "-t", "work", "#{pane_id}"); cur != pane {
		t.Errorf("tmux's current pane is %s, want %s", cur, pane)
	}
}

// On sway, a session whose Claude has no window (started outside any
// terminal): hud focus opens its folder and exits 1 saying so, and a click
// in the menu says so in a notification, where before the folder opened
// silently.
func TestSwayClickWithoutAWindowSaysSo(t *testing.T) {
	hud, hook := setupWayland(t, swayTools)
	home := newHome(t)
	s := startSway(t, home)
	startBar(t, home, s.env, s.conn)
	s.startMako(t, home)
	opened := fakeOpener(t, home, s.env)
	r := &notifying{hud: hud, hook: hook, home: home, env: s.env, conn: s.conn}
	r.notes = monitor(t, busOf(s.env))
	gamma := newTerminalSession(t, home, "gamma", "f0c05e55-0000-4000-8000-0000000005d1")
	detached := exec.Command("sh", "-c", gamma.command(hook))
	detached.Env, detached.Dir = s.env, home
	detached.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start(t, detached)
	// The stand-in and its cat go with the shell: the whole group.
	t.Cleanup(func() { syscall.Kill(-detached.Process.Pid, syscall.SIGTERM) })
	waitSession(t, hud, home, gamma.id)
	item, _ := r.startTray(t)

	cmd := exec.Command(hud, "focus", gamma.id)
	cmd.Env, cmd.Dir = s.env, home
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "its folder was opened instead") {
		t.Fatalf("hud focus of a session without a window: %v\n%s", err, out)
	}
	if err := item.Click(waitRow(t, item, "gamma")); err != nil {
		t.Fatal(err)
	}
	r.notes.waitFor(t, "The session's terminal could not be brought forward")
	b, _ := os.ReadFile(opened)
	if got, want := string(b), gamma.dir+"\n"+gamma.dir+"\n"; got != want {
		t.Errorf("opened %q, want the session's folder twice", got)
	}
}
