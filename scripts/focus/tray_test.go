package focus

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
	"github.com/godbus/dbus/v5"
)

// The click itself: the tray runs on the desktop with a real tray host
// (xfce4-panel), the session's row in its menu is clicked over D-Bus as
// the panel does, and the session's terminal becomes the active window.
func TestTrayClickRaisesTheTerminal(t *testing.T) {
	hud, hook := setup(t, [2]string{"dbus-daemon", "dbus"}, [2]string{"xfce4-panel", "xfce4-panel"})
	d := startDesktop(t)
	home := newHome(t)
	bus := startBus(t, home)
	env := append(personEnv(home, d.display), "DBUS_SESSION_BUS_ADDRESS="+bus, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "NO_AT_BRIDGE=1")
	conn, err := dbus.Connect(bus)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	startPanel(t, home, env, conn)

	const id = "f0c05e55-0000-4000-8000-00000000000c"
	ev := event(t, home, id)
	first := d.terminal(t, home, "claude-here", "sh", "-c", claude(ev, hook))
	waitSession(t, hud, home, id)

	tray := exec.Command(hud)
	tray.Env = env
	logPath := filepath.Join(home, "hud.log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	tray.Stderr = log
	start(t, tray)
	log.Close()
	t.Cleanup(func() {
		if b, _ := os.ReadFile(logPath); t.Failed() {
			t.Logf("hud's log:\n%s", b)
		}
	})
	item, err := sni.FindItem(conn, tray.Process.Pid, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	other := d.terminal(t, home, "other", "sh", "-c", "exec cat")
	d.waitActive(t, other)

	row := waitRow(t, item, "proj")
	if err := item.Click(row); err != nil {
		t.Fatal(err)
	}
	d.waitActive(t, first)
}

// startBus starts a session bus of the test's own and returns its address.
func startBus(t *testing.T, home string) string {
	t.Helper()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start(t, cmd)
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon said no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

// startPanel starts xfce4-panel with the desktop test's layout (a
// systray plugin, no first-run dialog) and waits until it hosts trays.
func startPanel(t *testing.T, home string, env []string, conn *dbus.Conn) {
	t.Helper()
	layout, err := os.ReadFile("../desktop/testdata/xfce4-panel.xml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, ".config", "xfce4", "xfconf", "xfce-perchannel-xml")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "xfce4-panel.xml"), layout, 0o644); err != nil {
		t.Fatal(err)
	}
	panel := exec.Command("xfce4-panel", "--disable-wm-check")
	panel.Env = env
	start(t, panel)
	deadline := time.Now().Add(15 * time.Second)
	for {
		var owned bool
		err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.kde.StatusNotifierWatcher").Store(&owned)
		if err == nil && owned {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the panel's tray never started: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitRow returns the menu item whose label starts with name.
func waitRow(t *testing.T, item *sni.Item, name string) int32 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		menu, err := item.Menu()
		if err == nil {
			for _, m := range menu {
				if strings.HasPrefix(m.Label, name+" ") && m.Visible && m.Enabled {
					return m.ID
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no menu row for %s: %v %+v", name, err, menu)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
