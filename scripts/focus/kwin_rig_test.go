package focus

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	hudfocus "github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/internal/wayland"
)

// kwinDesk is KWin, KDE Plasma's compositor, headless (a virtual output)
// with XWayland, on a bus of the test's own. KWin lists no windows to its
// clients: the tests ask it which window is active through its scripting
// on the bus, the way hud does (hudfocus.KWin).
type kwinDesk struct {
	env     []string // a client's environment on this desktop
	wayland string   // KWin's Wayland socket
	log     string   // KWin's log, where the test's scripts print
	conn    *dbus.Conn
	kwin    hudfocus.KWin
	// input is the connection typeKey sends its keys on, inputID its
	// fake input object; nil before the first key.
	input   *wayland.Client
	inputID uint32
}

// kwinTools are the programs the KWin tests drive.
var kwinTools = [][2]string{{"kwin_wayland", "kwin-wayland"}, {"Xwayland", "xwayland"}, {"konsole", "konsole"},
	{"xterm", "xterm"}, {"waybar", "waybar"}, {"dunst", "dunst"}, {"dunstctl", "dunst"},
	{"dbus-daemon", "dbus"}, {"dbus-monitor", "dbus"}}

// onKWin starts KWin with waybar hosting the tray and dunst showing the
// notifications, and returns the notification rig on it, with sessions
// alpha in Konsole (native Wayland) and beta in xterm (XWayland), beta's
// window active.
func onKWin(t *testing.T) (*kwinDesk, *notifying, *terminalSession, *terminalSession) {
	t.Helper()
	hud, hook := setupWayland(t, kwinTools)
	home := newHome(t)
	k := startKWin(t, home)
	startBar(t, home, k.env, k.conn)
	startDunst(t, k.env, k.conn)
	r := &notifying{hud: hud, hook: hook, home: home, env: k.env, conn: k.conn}
	r.notes = monitor(t, busOf(k.env))
	alpha := newTerminalSession(t, home, "alpha", "f0c05e55-0000-4000-8000-0000000006a1")
	alpha.pid = k.terminal(t, home, "konsole", alpha.command(hook))
	beta := newTerminalSession(t, home, "beta", "f0c05e55-0000-4000-8000-0000000006b1")
	beta.pid = k.terminal(t, home, "xterm", beta.command(hook))
	waitSession(t, hud, home, alpha.id)
	waitSession(t, hud, home, beta.id)
	return k, r, alpha, beta
}

// startKWin starts KWin on a virtual output with XWayland, and returns
// once KWin serves its scripting on the bus and has started its first
// client: a shell that writes the environment KWin gives its clients (the
// displays it picked) to a file.
func startKWin(t *testing.T, home string) *kwinDesk {
	t.Helper()
	runtime := filepath.Join(home, "run")
	if err := os.Mkdir(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	bus := startBus(t, home)
	// The packaged kwin_wayland carries a file capability
	// (cap_sys_resource) that a container refuses to exec; a copy carries
	// none.
	binary := filepath.Join(t.TempDir(), "kwin_wayland")
	packaged, err := exec.LookPath("kwin_wayland")
	var b []byte
	if err == nil {
		b, err = os.ReadFile(packaged)
	}
	if err == nil {
		err = os.WriteFile(binary, b, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	envFile := filepath.Join(runtime, "session.env")
	first := fmt.Sprintf("sh -c 'env > %[1]s.part && mv %[1]s.part %[1]s'", envFile)
	kwin := exec.Command(binary, "--virtual", "--xwayland", "--width", "1280", "--height", "800", "--no-lockscreen", first)
	kwin.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "XDG_RUNTIME_DIR=" + runtime,
		"DBUS_SESSION_BUS_ADDRESS=" + bus,
		"QT_LOGGING_RULES=kwin_scripting=true"} // scripts print to the log (script)
	kwin.Dir = home
	trustTheTests(t, home)
	k := &kwinDesk{log: filepath.Join(home, "kwin.log")}
	log, err := os.Create(k.log)
	if err != nil {
		t.Fatal(err)
	}
	kwin.Stdout, kwin.Stderr = log, log
	start(t, kwin)
	log.Close()
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(k.log)
			t.Logf("KWin's log:\n%s", b[max(0, len(b)-4000):])
		}
	})

	given := kwinWaitEnv(t, envFile)
	k.wayland = wayland.SocketPath(given["WAYLAND_DISPLAY"], runtime)
	// QT_QPA_PLATFORM: Qt clients (Konsole) speak Wayland, as in a Plasma
	// session, rather than X11 through XWayland.
	k.env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=xterm",
		"XDG_RUNTIME_DIR=" + runtime, "WAYLAND_DISPLAY=" + given["WAYLAND_DISPLAY"], "DISPLAY=" + given["DISPLAY"],
		"XDG_CURRENT_DESKTOP=KDE", "XDG_SESSION_TYPE=wayland", "QT_QPA_PLATFORM=wayland",
		"DBUS_SESSION_BUS_ADDRESS=" + bus, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "NO_AT_BRIDGE=1"}
	if k.conn, err = dbus.Connect(bus); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.conn.Close() })
	k.kwin = hudfocus.KWin{Bus: func() (*dbus.Conn, error) { return k.conn, nil }}
	waitName(t, k.conn, "org.kde.KWin")
	return k
}

// kwinWaitEnv waits for the environment KWin's first client wrote, and
// returns it.
func kwinWaitEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	var b []byte
	waitUntil(t, "KWin's first client", func() bool {
		var err error
		b, err = os.ReadFile(path)
		return err == nil
	})
	env := map[string]string{}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			env[k] = v
		}
	}
	if env["DISPLAY"] == "" || env["WAYLAND_DISPLAY"] == "" {
		t.Fatalf("KWin gave its clients no DISPLAY or WAYLAND_DISPLAY:\n%s", b)
	}
	return env
}

// trustTheTests has KWin offer this test program KDE's fake input (and its
// screenshots, restricted the same way over D-Bus), the
// way a Plasma session's programs are let use it: KWin 5.27 offers its
// privileged globals (org_kde_kwin_fake_input among them) only to a
// client whose executable is the Exec of an application's desktop file
// listing the interface in X-KDE-Wayland-Interfaces. KWin looks for the
// desktop file in its own XDG_DATA_HOME: home's .local/share.
func trustTheTests(t *testing.T, home string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".local", "share", "applications", "hud-focus-tests.desktop"),
		"[Desktop Entry]\nType=Application\nName=hud focus tests\nNoDisplay=true\nExec="+exe+
			"\nX-KDE-Wayland-Interfaces="+fakeInput+"\nX-KDE-DBUS-Restricted-Interfaces="+kwinScreenShot+"\n")
}

// terminal opens a window running sh -c command: Konsole, a native
// Wayland client, in a process of its own (--separate: no window joins
// another's process), or xterm, an X11 client of XWayland; it returns the
// terminal's process once KWin has its window active, as a new window
// gets it.
func (k *kwinDesk) terminal(t *testing.T, home, kind, command string) int {
	t.Helper()
	var cmd *exec.Cmd
	switch kind {
	case "konsole":
		cmd = exec.Command("konsole", "--separate", "-e", "sh", "-c", command)
	case "xterm":
		cmd = exec.Command("xterm", "-e", "sh", "-c", command)
	}
	cmd.Env, cmd.Dir = k.env, home
	start(t, cmd)
	pid := cmd.Process.Pid
	k.waitFocused(t, pid, 15*time.Second)
	return pid
}

// focused is the process whose window KWin has active, 0 for none.
func (k *kwinDesk) focused(t *testing.T) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	pid, err := k.kwin.Focused(ctx)
	if err != nil {
		t.Fatalf("asking KWin which window is active: %v", err)
	}
	return pid
}

// waitFocused waits until KWin has pid's window active, at most within,
// and returns how long that took.
func (k *kwinDesk) waitFocused(t *testing.T, pid int, within time.Duration) time.Duration {
	t.Helper()
	return waitFocus(t, "KWin", func() int { return k.focused(t) }, pid, within)
}

// kwinScriptFrame makes a test's script of a marker and the statements
// of a function: it prints the marker and what the function returned, or
// threw.
const kwinScriptFrame = `var answer;
try {
	answer = String((function () {
%[2]s
	})());
} catch (e) {
	answer = "error: " + e;
}
print(%[1]q + " " + answer);
`

// script has KWin run js, the statements of a function of the test's
// own, and returns what the function returned, which the script prints to
// KWin's log: the test's own view of the workspace, apart from hud's.
func (k *kwinDesk) script(t *testing.T, js string) string {
	t.Helper()
	marker := fmt.Sprintf("hud-test-%d", time.Now().UnixNano())
	file := filepath.Join(t.TempDir(), "test.js")
	writeFile(t, file, fmt.Sprintf(kwinScriptFrame, marker, js))
	scripting := k.conn.Object("org.kde.KWin", "/Scripting")
	var id int32
	if err := scripting.Call("org.kde.kwin.Scripting.loadScript", 0, file, marker).Store(&id); err != nil || id < 0 {
		t.Fatalf("KWin loaded no test script: %d %v", id, err)
	}
	defer scripting.Call("org.kde.kwin.Scripting.unloadScript", 0, marker)
	// KWin 5 serves a loaded script at /<id>, KWin 6 at /Scripting/Script<id>.
	var err error
	for _, path := range []string{fmt.Sprintf("/%d", id), fmt.Sprintf("/Scripting/Script%d", id)} {
		if err = k.conn.Object("org.kde.KWin", dbus.ObjectPath(path)).Call("org.kde.kwin.Script.run", 0).Err; err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("KWin ran no test script: %v", err)
	}
	// KWin reads the file, and runs the script, after run returns.
	var printed string
	waitUntil(t, "KWin to run the test's script", func() bool {
		b, _ := os.ReadFile(k.log)
		_, after, ok := strings.Cut(string(b), "js: "+marker+" ")
		printed, _, _ = strings.Cut(after, "\n")
		return ok
	})
	return printed
}

// KDE's fake input protocol (plasma-wayland-protocols' fake-input.xml):
// KWin 5.27 offers no virtual keyboard (wtype's protocol), and counts
// fake input as the person's, the idle time too.
const (
	fakeInput = "org_kde_kwin_fake_input"
	// The requests the tests send, by opcode, and the version that has
	// each.
	fakeInputAuthenticate = 0  // (application, reason string)
	fakeInputKeyboardKey  = 10 // (key, state uint), since version 4
	fakeInputKeyVersion   = 4
	// keyY is Linux's KEY_Y, the key the person types; evdev codes, as
	// keyboard_key takes.
	keyY = 21
)

// typeKey presses and releases a key in the window KWin has active,
// through KDE's fake input protocol. KWin takes fake input only from a
// client that said who it is and why (authenticate), and ignores the rest
// silently. The connection is kept for the test: KWin vets a new client
// of fake input (its executable, against the desktop files) for a quarter
// of a second, which would blur when the key counts.
func (k *kwinDesk) typeKey(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if k.input == nil {
		cl, err := wayland.Dial(ctx, k.wayland)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cl.Close() })
		id, version, err := cl.Bind(fakeInput, fakeInputKeyVersion)
		if err == nil && version < fakeInputKeyVersion {
			err = fmt.Errorf("version %d, no keyboard_key before %d", version, fakeInputKeyVersion)
		}
		if err == nil {
			err = cl.Request(id, fakeInputAuthenticate, "hud focus tests", "the person typing")
		}
		if err != nil {
			t.Fatalf("KWin's %s: %v", fakeInput, err)
		}
		k.input, k.inputID = cl, id
	}
	const pressed, released = 1, 0
	for _, err := range []error{
		k.input.Request(k.inputID, fakeInputKeyboardKey, uint32(keyY), uint32(pressed)),
		k.input.Request(k.inputID, fakeInputKeyboardKey, uint32(keyY), uint32(released)),
		k.input.Sync(ctx),
	} {
		if err != nil {
			t.Fatalf("typing through %s: %v", fakeInput, err)
		}
	}
}

// checkTypingCounts fails the test unless KWin counts typeKey as the
// person's input: a watch of the test's own on KWin's idle notifications
// (hud's protocol) says idle a second after a key, and active again after
// the next one, sent on the same connection.
func (k *kwinDesk) checkTypingCounts(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	w, err := wayland.Watch(ctx, k.wayland, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	k.typeKey(t)
	idle := func() time.Duration {
		d, err := w.Idle()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	waitUntil(t, "KWin to say the person is idle", func() bool { return idle() > 0 })
	k.typeKey(t)
	waitUntil(t, "KWin to count the fake key as input", func() bool { return idle() == 0 })
}
