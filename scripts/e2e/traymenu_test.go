package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// menuTray is the tray (bin/hud) run on a session bus of the rig's own,
// with answering on, so the rig can click its menu over D-Bus as a tray
// host does when the person picks a row. No tray host runs on that bus:
// the tray exports its item and menu all the same.
type menuTray struct {
	r      *rig
	item   *sni.Item
	conn   *dbus.Conn
	tray   *exec.Cmd
	bus    *exec.Cmd
	exited chan struct{}
	log    *os.File
	once   sync.Once
}

// startMenuTray starts a session bus and the tray on it, and returns once
// the tray serves the answering socket and its menu answers on the bus.
// The tray is stopped when the test ends, if stop was not called before.
func (r *rig) startMenuTray() *menuTray {
	r.t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		if os.Getenv("CI") == "true" {
			r.t.Fatal("dbus-daemon is missing (apt-get install dbus): CI must provide it")
		}
		r.t.Skip("dbus-daemon is not installed (apt-get install dbus); the tray cannot run here")
	}
	if out, err := r.hud("answer", "on"); err != nil {
		r.t.Fatalf("hud answer on: %v\n%s", err, out)
	}
	m := &menuTray{r: r, exited: make(chan struct{})}
	r.t.Cleanup(m.stop)
	addr := m.startBus()
	var err error
	if m.log, err = os.CreateTemp(r.root, "tray-*.log"); err != nil {
		r.t.Fatal(err)
	}
	m.tray = exec.Command(r.s.hud)
	m.tray.Env = append(r.baseEnv(), "DBUS_SESSION_BUS_ADDRESS="+addr)
	m.tray.Stdout, m.tray.Stderr = m.log, m.log
	m.tray.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := m.tray.Start(); err != nil {
		r.t.Fatal(err)
	}
	go func() { m.tray.Wait(); close(m.exited) }()
	if m.conn, err = dbus.Connect(addr); err != nil {
		r.t.Fatalf("connecting to the tray's bus: %v", err)
	}
	if m.item, err = sni.ItemOf(m.conn, m.tray.Process.Pid, 15*time.Second); err != nil {
		r.t.Fatalf("the tray's item: %v\ntray log:\n%s", err, m.logText())
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if out, err := r.hud("answer"); err == nil && strings.Contains(out, "No dialog waits") {
			return m
		}
		if time.Now().After(deadline) {
			out, _ := r.hud("answer")
			r.t.Fatalf("the tray never served the answering socket; hud answer says:\n%s\ntray log:\n%s", out, m.logText())
		}
	}
}

// startBus starts a session bus of the rig's own and returns its address.
func (m *menuTray) startBus() string {
	m.bus = exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	m.bus.Env = m.r.baseEnv()
	m.bus.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := m.bus.StdoutPipe()
	if err != nil {
		m.r.t.Fatal(err)
	}
	if err := m.bus.Start(); err != nil {
		m.r.t.Fatalf("starting dbus-daemon: %v", err)
	}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		m.r.t.Fatalf("dbus-daemon said no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

// stop ends the tray (SIGTERM, then SIGKILL after 3 s) and its bus. Only
// the first call acts.
func (m *menuTray) stop() {
	m.once.Do(func() {
		if m.tray != nil && m.tray.Process != nil {
			_ = syscall.Kill(-m.tray.Process.Pid, syscall.SIGTERM)
			select {
			case <-m.exited:
			case <-time.After(3 * time.Second):
				_ = syscall.Kill(-m.tray.Process.Pid, syscall.SIGKILL)
				<-m.exited
			}
		}
		if m.conn != nil {
			m.conn.Close()
		}
		if m.bus != nil && m.bus.Process != nil {
			_ = syscall.Kill(-m.bus.Process.Pid, syscall.SIGTERM)
			_ = m.bus.Wait()
		}
		if m.r.t.Failed() && m.log != nil {
			m.r.t.Logf("the tray's log:\n%s", m.logText())
		}
		if m.log != nil {
			m.log.Close()
		}
	})
}

func (m *menuTray) logText() string {
	if m.log == nil {
		return ""
	}
	b, _ := os.ReadFile(m.log.Name())
	return string(b)
}

// answerRow waits until the menu offers choice for the dialog whose
// subject holds subject, and returns the row's id. The menu writes a
// dialog as its subject's lines, then a row "↳ <choice>" per choice.
func (m *menuTray) answerRow(subject, choice string, timeout time.Duration) int32 {
	m.r.t.Helper()
	var labels []string
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		items, err := m.item.Menu()
		if err != nil {
			continue
		}
		labels = sni.VisibleLabels(items)
		seen := false
		for _, it := range items {
			label := strings.TrimSpace(it.Label)
			switch {
			case !it.Visible || it.Separator:
			case strings.Contains(label, subject):
				seen = true
			case seen && label == "↳ "+choice && it.Enabled:
				return it.ID
			case seen && !strings.HasPrefix(label, "↳ "):
				seen = false
			}
		}
	}
	m.r.t.Fatalf("the tray's menu never offered %q for %q within %v; the menu:\n%s\ntray log:\n%s",
		choice, subject, timeout, strings.Join(labels, "\n"), m.logText())
	return 0
}

// click picks the menu row id, as a tray host does, and returns the
// moment it did.
func (m *menuTray) click(id int32) time.Time {
	m.r.t.Helper()
	at := time.Now()
	if err := m.item.Click(id); err != nil {
		m.r.t.Fatalf("clicking the tray's menu row %d: %v\ntray log:\n%s", id, err, m.logText())
	}
	return at
}
