package focus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
	"github.com/godbus/dbus/v5"
	"github.com/jezek/xgb/xproto"
)

// notifying is a desktop for the notification tests: Xvfb, xfwm4, a bus
// of the test's own with xfce4-panel hosting the tray and dunst showing
// the notifications, and dbus-monitor reading every Notify call.
type notifying struct {
	hud, hook, home string
	d               *desktop
	env             []string
	conn            *dbus.Conn
	notes           *notifications
}

func startNotifying(t *testing.T) *notifying {
	t.Helper()
	hud, hook := setup(t, [2]string{"dbus-daemon", "dbus"}, [2]string{"xfce4-panel", "xfce4-panel"},
		[2]string{"dunst", "dunst"}, [2]string{"dbus-monitor", "dbus"})
	r := &notifying{hud: hud, hook: hook, d: startDesktop(t), home: newHome(t)}
	bus := startBus(t, r.home)
	r.env = append(personEnv(r.home, r.d.display), "DBUS_SESSION_BUS_ADDRESS="+bus,
		"XDG_CONFIG_HOME="+filepath.Join(r.home, ".config"), "NO_AT_BRIDGE=1")
	conn, err := dbus.Connect(bus)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	r.conn = conn
	startPanel(t, r.home, r.env, conn)
	startDunst(t, r.env, conn)
	r.notes = monitor(t, bus)
	return r
}

// startDunst starts dunst as the notification daemon of the desktop env
// names, and waits until it serves on the bus conn is on.
func startDunst(t *testing.T, env []string, conn *dbus.Conn) {
	t.Helper()
	dunst := exec.Command("dunst")
	dunst.Env = env
	start(t, dunst)
	waitName(t, conn, "org.freedesktop.Notifications")
}

// startTray starts the tray and returns its item and the path of its log,
// shown when the test fails.
func (r *notifying) startTray(t *testing.T) (*sni.Item, string) {
	t.Helper()
	tray := exec.Command(r.hud)
	tray.Env = r.env
	logPath := filepath.Join(r.home, "hud.log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	tray.Stderr = log
	start(t, tray)
	log.Close()
	t.Cleanup(func() {
		if b, _ := os.ReadFile(logPath); t.Failed() {
			t.Logf("hud's log:\n%s\nNotify calls seen: %q", b, r.notes.summaries())
		}
	})
	item, err := sni.FindItem(r.conn, tray.Process.Pid, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return item, logPath
}

// terminalSession is a stand-in Claude in an xterm of its own, fed events
// through a FIFO (the terminal's own input stays the person's).
type terminalSession struct {
	id, dir, fifo, start string
	// win is its xterm, when it has one of its own.
	win xproto.Window
	// pid is its terminal's process, on a Wayland desktop.
	pid int
}

func newTerminalSession(t *testing.T, home, name, id string) *terminalSession {
	t.Helper()
	s := &terminalSession{id: id, dir: filepath.Join(home, name), fifo: filepath.Join(home, name+".in")}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(s.fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	s.start = s.event(t, "SessionStart")
	return s
}

// command is the shell command that runs the stand-in: it plays the
// SessionStart, then the events sent (send). cat opens the FIFO for
// reading and writing, so it never sees an end between two writers.
func (s *terminalSession) command(hook string) string {
	return fmt.Sprintf(`{ echo %s; exec cat <>%s; } | HUD_HOOK_COMMAND=%s %s`, s.start, s.fifo, hook, claudeBin)
}

// event writes the event of that name for the session and returns its path.
func (s *terminalSession) event(t *testing.T, name string) string {
	t.Helper()
	ev := map[string]any{"session_id": s.id, "hook_event_name": name, "cwd": s.dir,
		"transcript_path": filepath.Join(s.dir, "t.jsonl"), "permission_mode": "default"}
	switch name {
	case "SessionStart":
		ev["source"] = "startup"
	case "UserPromptSubmit":
		ev["prompt"] = "run the tests"
	case "PermissionRequest":
		ev["tool_name"] = "Bash"
		ev["tool_input"] = map[string]any{"command": "npm test", "description": "run the tests"}
	}
	b, _ := json.Marshal(ev)
	path := filepath.Join(s.dir, name+".json")
	writeFile(t, path, string(b))
	return path
}

// send plays the event through the session's hook.
func (s *terminalSession) send(t *testing.T, name string) {
	t.Helper()
	path := s.event(t, name)
	f, err := os.OpenFile(s.fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(path + "\n"); err != nil {
		t.Fatal(err)
	}
}

// notifications are the Notify calls dbus-monitor saw on the bus.
type notifications struct {
	mu   sync.Mutex
	seen []string
	// bodies are the calls' bodies, in the same order.
	bodies []string
}

// monitor starts dbus-monitor on the bus for calls of Notify and keeps
// each call's summary (its fourth argument). Only calls to the daemon's
// well-known name count, which is where hud sends them: GNOME's daemon
// passes each call on to the shell (org.gnome.Shell.Notifications) under
// the same interface, and would be counted twice.
func monitor(t *testing.T, bus string) *notifications {
	t.Helper()
	cmd := exec.Command("dbus-monitor", "--address", bus, "type='method_call',destination='org.freedesktop.Notifications',"+
		"interface='org.freedesktop.Notifications',member='Notify'")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start(t, cmd)
	n := &notifications{}
	str := regexp.MustCompile(`^\s+string "(.*)"$`)
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		arg := -1 // the string arguments of the current Notify call
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.Contains(line, "member=NameAcquired") || strings.Contains(line, "member=NameLost"):
				select {
				case <-ready:
				default:
					close(ready)
				}
			case strings.Contains(line, "member=Notify"):
				arg = 0
			case arg >= 0 && str.MatchString(line):
				arg++
				switch arg { // app name, icon, summary, body
				case 3:
					n.mu.Lock()
					n.seen = append(n.seen, str.FindStringSubmatch(line)[1])
					n.mu.Unlock()
				case 4:
					n.mu.Lock()
					n.bodies = append(n.bodies, str.FindStringSubmatch(line)[1])
					n.mu.Unlock()
					arg = -1
				}
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(5 * time.Second):
		// Older dbus-monitor says nothing until the first message.
	}
	return n
}

func (n *notifications) summaries() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.seen...)
}

// body is the body of the ith call, "" when not seen yet.
func (n *notifications) body(i int) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if i >= len(n.bodies) {
		return ""
	}
	return n.bodies[i]
}

// waitFor waits until a Notify call with that summary was seen.
func (n *notifications) waitFor(t *testing.T, summary string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, s := range n.summaries() {
			if s == summary {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no notification %q; seen %q", summary, n.summaries())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitName waits until a process owns the name on the bus.
func waitName(t *testing.T, conn *dbus.Conn, name string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var owned bool
		err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&owned)
		if err == nil && owned {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nobody owns %s: %v", name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func equal(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}
