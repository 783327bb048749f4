package focus

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	hudfocus "github.com/capacitor-hud/hud/hud/focus"
)

// On KWin, hud focus brings the session's terminal to the focus, whether
// a native Wayland window (Konsole) or an XWayland one (xterm), from a
// window of the other kind, and from another virtual desktop, minimized:
// KWin has it active within withinClick of hud focus returning.
func TestKWinFocusRaisesTheTerminal(t *testing.T) {
	k, r, alpha, beta := onKWin(t)
	other := k.terminal(t, r.home, "konsole", "exec cat")

	steps := []struct {
		name   string
		s      *terminalSession
		before int
		// setup puts the window away; the focus is then elsewhere.
		setup func()
	}{
		{"Konsole, from another Konsole", alpha, other, nil},
		{"xterm, from Konsole", beta, alpha.pid, nil},
		{"Konsole, from xterm", alpha, beta.pid, nil},
		{"Konsole, minimized on another virtual desktop", alpha, 0, func() {
			if got := k.script(t, fmt.Sprintf(kwinPutAway, alpha.pid)); got != "true away" {
				t.Fatalf("setup: the script putting the Konsole away says %q", got)
			}
		}},
	}
	for _, step := range steps {
		if step.setup != nil {
			step.setup()
		} else if got := k.focused(t); got != step.before {
			t.Fatalf("%s: setup: process %d has the focus, want %d", step.name, got, step.before)
		}
		begin := time.Now()
		runIn(t, k.env, r.home, r.hud, "focus", step.s.id)
		ran := time.Since(begin)
		took := k.waitFocused(t, step.s.pid, withinClick)
		if step.setup != nil {
			if got := k.script(t, fmt.Sprintf(kwinShown, step.s.pid)); got != "true shown" {
				t.Errorf("%s: the window is not back: %s", step.name, got)
			}
		}
		t.Logf("%s: hud focus ran %v, KWin had the window active %v after", step.name, ran.Round(time.Millisecond), took.Round(time.Millisecond))
	}
}

// kwinPutAway is a script of the test's own (KWin 5's API, or KWin 6's)
// that moves the window of process %d to a second virtual desktop, not
// the current one, and minimizes it; it returns whether it found the
// window, and whether it is away.
const kwinPutAway = kwinFind + `if (kwin6) {
	workspace.createDesktop(1, "two");
	w.desktops = [workspace.desktops[1]];
} else {
	workspace.desktops = 2;
	w.desktop = 2;
}
w.minimized = true;
return !!w + (w.minimized && !shown(w) ? " away" : " still here");`

// kwinShown returns whether it found the window of process %d, and
// whether it is shown: on the current virtual desktop, not minimized.
const kwinShown = kwinFind + `return !!w + (!w.minimized && shown(w) ? " shown" : " not shown");`

// kwinHasWindow returns whether KWin has a window of process %d.
const kwinHasWindow = kwinFind + `return !!w;`

// kwinFind is the start of the test's scripts: w is the window of
// process %[1]d (the first it has); shown tells whether a window is on
// the current virtual desktop.
const kwinFind = `var kwin6 = typeof workspace.windowList === "function";
var windows = kwin6 ? workspace.windowList() : workspace.clientList();
var w = null;
for (var i = 0; i < windows.length && !w; i++) {
	if (windows[i].pid === %[1]d) {
		w = windows[i];
	}
}
function shown(w) {
	return kwin6 ? w.desktops.indexOf(workspace.currentDesktop) >= 0 : w.desktop === workspace.currentDesktop;
}
`

// On KWin, a session whose terminal was closed, its Claude still running:
// no window is its, KWin says so, and hud focus exits non-zero after
// opening the session's folder, the focus where it was.
func TestKWinFocusWithoutAWindowFails(t *testing.T) {
	hud, hook := setupWayland(t, kwinTools)
	home := newHome(t)
	k := startKWin(t, home)
	opened := fakeOpener(t, home, k.env)

	gamma := newTerminalSession(t, home, "gamma", "f0c05e55-0000-4000-8000-0000000006c1")
	// Claude outlives its terminal: the hangup is ignored. Its process
	// group (the shell's, in the terminal's session) ends with the test.
	term := k.terminal(t, home, "konsole", "trap '' HUP; "+gamma.command(hook))
	pid := waitSession(t, hud, home, gamma.id)
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	other := k.terminal(t, home, "konsole", "exec cat")
	if err := syscall.Kill(term, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "Konsole's window to close", func() bool { return k.script(t, fmt.Sprintf(kwinHasWindow, term)) == "false" })
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("setup: the stand-in Claude ended with its terminal: %v", err)
	}

	cmd := exec.Command(hud, "focus", gamma.id)
	cmd.Env, cmd.Dir = k.env, home
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("hud focus: %v, want a non-zero exit\n%s", err, out)
	}
	if !strings.Contains(string(out), hudfocus.ErrNoWindow.Error()) {
		t.Errorf("hud focus does not say KWin found no window:\n%s", out)
	}
	// hud starts xdg-open and does not wait for it.
	waitUntil(t, "xdg-open to be run", func() bool { b, _ := os.ReadFile(opened); return len(b) > 0 })
	if b, _ := os.ReadFile(opened); string(b) != gamma.dir+"\n" {
		t.Errorf("opened %q, want the session's folder %s", b, gamma.dir)
	}
	if got := k.focused(t); got != other {
		t.Errorf("process %d has the focus, want %d, as before", got, other)
	}
}

// On KWin, notifications fit the window KWin has active: a session's
// dialog while its terminal (Konsole, or an xterm) has the focus sends
// none; the same while another window has it sends one.
func TestKWinNoNotificationForTheFocusedTerminal(t *testing.T) {
	k, r, alpha, beta := onKWin(t)
	item, logPath := r.startTray(t)
	waitRow(t, item, "alpha")
	waitRow(t, item, "beta")

	// The person clicks alpha's row in the menu (waybar hosts the tray)
	// and looks at its Konsole when its dialog comes.
	if err := item.Click(waitRow(t, item, "alpha")); err != nil {
		t.Fatal(err)
	}
	k.waitFocused(t, alpha.pid, withinClick)
	alpha.send(t, "PermissionRequest")
	waitRow(t, item, "alpha — waiting")
	time.Sleep(1500 * time.Millisecond) // the notification would be out by now
	if got := r.notes.summaries(); len(got) != 0 {
		t.Fatalf("notified about the session in front: %q", got)
	}

	// They click beta's row and look at its xterm: its dialog is held
	// back too; alpha's next one, behind now, is shown.
	if err := item.Click(waitRow(t, item, "beta")); err != nil {
		t.Fatal(err)
	}
	k.waitFocused(t, beta.pid, withinClick)
	beta.send(t, "PermissionRequest")
	waitRow(t, item, "beta — waiting")
	alpha.send(t, "UserPromptSubmit")
	waitRow(t, item, "alpha — working")
	alpha.send(t, "PermissionRequest")
	r.notes.waitFor(t, "alpha needs you")
	time.Sleep(1500 * time.Millisecond)
	k.shot(t, "kwin-notification.png")
	if got, want := r.notes.summaries(), []string{"alpha needs you"}; !equal(got, want) {
		t.Errorf("notifications %q, want only alpha's", got)
	}
	b, _ := os.ReadFile(logPath)
	for _, held := range []string{"alpha", "beta"} {
		if why := "held back (you are looking at its terminal): " + held + " needs you"; !strings.Contains(string(b), why) {
			t.Errorf("hud's log does not say %q", why)
		}
	}
}

// On KWin the away push follows the compositor's idle notifications
// (ext_idle_notifier_v1), the person's keys typed through KDE's fake
// input: while they type into the focused Konsole, none; once they stop,
// one after push_after, and no second one; with dunst paused (Do Not
// Disturb), none for the next wait.
func TestKWinAwayPush(t *testing.T) {
	t.Parallel() // it mostly waits: the other pushes wait beside it
	k, r, alpha, _ := onKWin(t)
	got := listenForPushes(t, r.home, waylandPushAfter)
	item, _ := r.startTray(t)
	waitRow(t, item, "alpha")
	k.click(t, r, alpha) // typing goes to alpha's Konsole (the stand-in reads nothing from it)
	k.checkTypingCounts(t)
	awayPushOnWayland(t, item, alpha, got, func() { k.typeKey(t) },
		func() { runIn(t, k.env, r.home, "dunstctl", "set-paused", "true") })
}

// click runs hud focus on s, as a click on its row in the menu does, and
// waits until KWin has s's terminal active, within withinClick.
func (k *kwinDesk) click(t *testing.T, r *notifying, s *terminalSession) {
	t.Helper()
	runIn(t, k.env, r.home, r.hud, "focus", s.id)
	k.waitFocused(t, s.pid, withinClick)
}
