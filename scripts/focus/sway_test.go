package focus

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// swayDesk is sway, headless, with XWayland and waybar (whose tray module
// hosts StatusNotifierItems), on a bus of the test's own. sway refuses to
// run as root, and tests and CI run as root, so it runs in a user
// namespace where it is user 1000: its sockets are root's outside, and
// every other program (the terminals, hud, the bar, mako) runs outside
// as usual, a client like any other.
type swayDesk struct {
	env     []string // a client's environment on this desktop
	sock    string   // sway's IPC socket
	display string   // XWayland's
	conn    *dbus.Conn
}

// swayTools are the programs the sway tests drive.
var swayTools = [][2]string{{"sway", "sway"}, {"swaymsg", "sway"}, {"foot", "foot"}, {"Xwayland", "xwayland"},
	{"xterm", "xterm"}, {"waybar", "waybar"}, {"mako", "mako-notifier"}, {"makoctl", "mako-notifier"},
	{"wtype", "wtype"}, {"grim", "grim"}, {"unshare", "util-linux"}, {"dbus-daemon", "dbus"}, {"dbus-monitor", "dbus"}}

func startSway(t *testing.T, home string) *swayDesk {
	t.Helper()
	runtime := filepath.Join(home, "run")
	if err := os.Mkdir(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	bus := startBus(t, home)
	config := filepath.Join(home, "sway.config")
	// XWayland at once rather than at the first X client, so its display
	// is known before any; new windows take the focus.
	writeFile(t, config, "xwayland force\noutput HEADLESS-1 resolution 1280x800\nfocus_on_window_activation focus\n"+
		"exec printf %s \"$DISPLAY\" > "+filepath.Join(home, "xdisplay")+"\n")
	sway := exec.Command("unshare", "--user", "--map-user=1000", "--map-group=1000", "sway", "-c", config)
	sway.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + runtime,
		"WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman", "DBUS_SESSION_BUS_ADDRESS=" + bus}
	log, err := os.Create(filepath.Join(home, "sway.log"))
	if err != nil {
		t.Fatal(err)
	}
	sway.Stdout, sway.Stderr = log, log
	start(t, sway)
	log.Close()
	s := &swayDesk{}
	waitUntil(t, "sway's sockets and XWayland", func() bool {
		socks, _ := filepath.Glob(filepath.Join(runtime, "sway-ipc.*.sock"))
		b, _ := os.ReadFile(filepath.Join(home, "xdisplay"))
		_, werr := os.Stat(filepath.Join(runtime, "wayland-1"))
		if len(socks) == 1 && len(b) > 0 && werr == nil {
			s.sock, s.display = socks[0], string(b)
			return true
		}
		return false
	})
	s.env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=xterm",
		"XDG_RUNTIME_DIR=" + runtime, "WAYLAND_DISPLAY=wayland-1", "SWAYSOCK=" + s.sock, "DISPLAY=" + s.display,
		"XDG_CURRENT_DESKTOP=sway", "DBUS_SESSION_BUS_ADDRESS=" + bus, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
	if s.conn, err = dbus.Connect(bus); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.conn.Close() })
	return s
}

// startBar starts waybar with the tray module alone, a client of the
// Wayland desktop env names (it needs wlr-layer-shell: sway, KWin), and
// waits until it hosts trays on the bus conn is on.
func startBar(t *testing.T, home string, env []string, conn *dbus.Conn) {
	t.Helper()
	config := filepath.Join(home, "waybar.json")
	writeFile(t, config, `{"layer": "top", "position": "top", "height": 28, "modules-right": ["tray"], "tray": {"icon-size": 20, "spacing": 6}}`)
	bar := exec.Command("waybar", "-c", config)
	bar.Env = env
	start(t, bar)
	waitName(t, conn, "org.kde.StatusNotifierWatcher")
}

// startMako starts mako as the notification daemon, with a
// do-not-disturb mode as its documentation writes it.
func (s *swayDesk) startMako(t *testing.T, home string) {
	t.Helper()
	config := filepath.Join(home, "mako.config")
	writeFile(t, config, "default-timeout=2000\n[mode=do-not-disturb]\ninvisible=1\n")
	mako := exec.Command("mako", "-c", config)
	mako.Env = s.env
	start(t, mako)
	waitName(t, s.conn, "org.freedesktop.Notifications")
}

// terminal opens a window running sh -c command: foot, a native Wayland
// terminal, or xterm through XWayland; it returns the terminal's process
// once sway shows its window.
func (s *swayDesk) terminal(t *testing.T, home, kind, title, command string) int {
	t.Helper()
	var cmd *exec.Cmd
	switch kind {
	case "foot":
		cmd = exec.Command("foot", "-T", title, "sh", "-c", command)
	case "xterm":
		cmd = exec.Command("xterm", "-title", title, "-e", "sh", "-c", command)
	}
	cmd.Env, cmd.Dir = s.env, home
	start(t, cmd)
	pid := cmd.Process.Pid
	waitUntil(t, "the window of "+title, func() bool { return s.hasWindow(t, pid) })
	return pid
}

// swayTree is the part of sway's tree the tests read.
type swayTree struct {
	PID      int        `json:"pid"`
	Focused  bool       `json:"focused"`
	Nodes    []swayTree `json:"nodes"`
	Floating []swayTree `json:"floating_nodes"`
}

func (s *swayDesk) tree(t *testing.T) swayTree {
	t.Helper()
	cmd := exec.Command("swaymsg", "-s", s.sock, "-t", "get_tree", "-r")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("swaymsg get_tree: %v", err)
	}
	var tree swayTree
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatal(err)
	}
	return tree
}

func (n swayTree) each(f func(swayTree)) {
	f(n)
	for _, c := range append(n.Nodes, n.Floating...) {
		c.each(f)
	}
}

func (s *swayDesk) hasWindow(t *testing.T, pid int) bool {
	found := false
	s.tree(t).each(func(n swayTree) { found = found || n.PID == pid })
	return found
}

// focused is the process of the window sway says has the focus.
func (s *swayDesk) focused(t *testing.T) int {
	pid := 0
	s.tree(t).each(func(n swayTree) {
		if n.Focused && n.PID > 0 {
			pid = n.PID
		}
	})
	return pid
}

// waitFocused waits until sway says pid's window has the focus, at most
// within.
func (s *swayDesk) waitFocused(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	waitFocus(t, "sway", func() int { return s.focused(t) }, pid, within)
}

// waitFocus waits until the compositor called name says (focused) that
// pid's window has the focus, at most within, and returns how long that
// took.
func waitFocus(t *testing.T, name string, focused func() int, pid int, within time.Duration) time.Duration {
	t.Helper()
	begin := time.Now()
	for {
		got := focused()
		if got == pid {
			return time.Since(begin)
		}
		if time.Since(begin) > within {
			t.Fatalf("%s's focus is on process %d, want %d (within %v)", name, got, pid, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// focus focuses pid's window the way the person would, by sway itself.
func (s *swayDesk) focus(t *testing.T, pid int) {
	t.Helper()
	if out, err := exec.Command("swaymsg", "-s", s.sock, fmt.Sprintf("[pid=%d] focus", pid)).CombinedOutput(); err != nil {
		t.Fatalf("swaymsg focus: %v\n%s", err, out)
	}
	s.waitFocused(t, pid, 2*time.Second)
}

// shot saves a screenshot of the desktop (grim) under testdata/out.
func (s *swayDesk) shot(t *testing.T, name string) {
	t.Helper()
	out := filepath.Join("..", "..", "testdata", "out", name)
	cmd := exec.Command("grim", out)
	cmd.Env = s.env
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("grim: %v\n%s", err, b)
	}
}

func (s *swayDesk) run(t *testing.T, home, name string, args ...string) string {
	t.Helper()
	return runIn(t, s.env, home, name, args...)
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	waitWithin(t, 15*time.Second, what, ok)
}

// waitWithin waits until ok, at most within.
func waitWithin(t *testing.T, within time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
