package focus

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/assets"
	hudfocus "github.com/capacitor-hud/hud/hud/focus"
)

// gnomeDesk is a real GNOME Shell, headless, as a person's login starts
// it: on a session bus of the test's own (and a system bus of its own,
// empty: the shell quits at startup without one, and must find none of
// the machine's services), with a home, runtime directory and dconf
// database of the test's own, in which `hud install` has put hud's
// extension and `gnome-extensions enable` enabled it (with the
// AppIndicator extension, the top bar's tray) before the shell starts: on
// Wayland that is the only order that loads it. GNOME lists and raises
// windows for no outside program: the tests ask hud's extension
// (hudfocus.GNOMEShell) and, as a second view, Mutter's own list.
type gnomeDesk struct {
	home string
	// base is the session's environment without a display; env is a
	// client's: Wayland, XWayland and the buses.
	base, env []string
	conn      *dbus.Conn
	// checker owns the names GNOME Shell lets read its windows and take
	// screenshots (its own tools'), for the test's own view.
	checker *dbus.Conn
	shell   hudfocus.GNOMEShell
	// titles are the terminals' titles by process, as Mutter lists them.
	titles map[int]string
	// installed is what `hud install` printed.
	installed string
	log       string // the shell's
	// keys is the remote desktop session typeKey types in, nil before
	// the first key and after stopTyping; sharing is when it began, then
	// when the top bar stops showing it.
	keys    dbus.BusObject
	sharing time.Time
}

// gnomeTools are the programs the GNOME tests drive.
var gnomeTools = [][2]string{{"gnome-shell", "gnome-shell"}, {"gnome-extensions", "gnome-shell"},
	{"gsettings", "libglib2.0-bin"}, {"foot", "foot"}, {"xterm", "xterm"}, {"Xwayland", "xwayland"},
	{"unshare", "util-linux"}, {"dbus-daemon", "dbus"}, {"dbus-monitor", "dbus"},
	{"dbus-update-activation-environment", "dbus"}}

// setupGNOME skips outside make focus-test, or without the programs, or
// without root: the shell runs in a mount namespace of its own
// (gnomeHeadless). On CI, which runs as root, that fails instead.
func setupGNOME(t *testing.T) (hud, hook string) {
	t.Helper()
	hud, hook = setupWayland(t, gnomeTools)
	if os.Geteuid() != 0 {
		msg := "GNOME Shell's headless test needs root: it hides /run/systemd from the shell in a mount namespace (unshare --mount)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return hud, hook
}

// gnomeAppIndicators are the AppIndicator extension's names: Debian's and
// Ubuntu's package installs it as the second.
var gnomeAppIndicators = []string{"appindicatorsupport@rgcjonas.gmail.com", "ubuntu-appindicators@ubuntu.com"}

// gnomeAppIndicator is the uuid of the AppIndicator extension installed
// system-wide, "" when there is none.
func gnomeAppIndicator() string {
	for _, uuid := range gnomeAppIndicators {
		for _, dir := range []string{"/usr/share/gnome-shell/extensions", "/usr/local/share/gnome-shell/extensions"} {
			if _, err := os.Stat(filepath.Join(dir, uuid)); err == nil {
				return uuid
			}
		}
	}
	return ""
}

// startGNOME installs hud's extension as a person would, then starts GNOME
// Shell and waits until it runs the extension, shows no overview, and
// serves XWayland.
func startGNOME(t *testing.T, home, hud, hook string) *gnomeDesk {
	t.Helper()
	runtime := filepath.Join(home, "run")
	if err := os.Mkdir(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	d := &gnomeDesk{home: home, log: filepath.Join(home, "gnome-shell.log"), titles: map[int]string{}}
	system, session := startBus(t, home), startBus(t, home)
	d.base = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=xterm", "NO_AT_BRIDGE=1",
		"XDG_RUNTIME_DIR=" + runtime, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_CURRENT_DESKTOP=GNOME", "XDG_SESSION_TYPE=wayland",
		"DBUS_SYSTEM_BUS_ADDRESS=" + system, "DBUS_SESSION_BUS_ADDRESS=" + session}
	// The shell warns once of the screen lock a session without GDM
	// lacks, in a banner that would stay until the person is active; the
	// file it leaves says the warning was shown.
	writeFile(t, filepath.Join(home, ".local", "share", "gnome-shell", "lock-warning-shown"), "")
	// The services the bus starts (dconf's, the shell's notification
	// daemon) are the session's: its home, runtime directory and dconf.
	runIn(t, d.base, home, "dbus-update-activation-environment", "--all")
	d.install(t, hud, hook)
	d.startShell(t)
	return d
}

// install runs `hud install` on this GNOME, then what it says to do:
// gnome-extensions enable. The AppIndicator extension is enabled too, and
// user extensions allowed (the default, said here so no machine setting
// counts).
func (d *gnomeDesk) install(t *testing.T, hud, hook string) {
	t.Helper()
	d.installed = runIn(t, d.base, d.home, hud, "install", "--hook", hook)
	runIn(t, d.base, d.home, "gnome-extensions", "enable", assets.GNOMEExtensionUUID)
	if uuid := gnomeAppIndicator(); uuid != "" {
		runIn(t, d.base, d.home, "gnome-extensions", "enable", uuid)
	}
	runIn(t, d.base, d.home, "gsettings", "set", "org.gnome.shell", "disable-user-extensions", "false")
}

// gnomeHeadless starts GNOME Shell headless. Without a logind session it
// would quit at once; with /run/systemd out of its sight (a private mount
// namespace), it takes the machine for one without systemd and manages
// its own session.
const gnomeHeadless = `[ -d /run/systemd ] && mount -t tmpfs tmpfs /run/systemd; ` +
	`exec gnome-shell --headless --wayland --virtual-monitor 1280x800`

// startShell starts GNOME Shell and waits until it runs hud's extension,
// shows the desktop rather than the overview it opens with, and serves
// XWayland.
func (d *gnomeDesk) startShell(t *testing.T) {
	t.Helper()
	shell := exec.Command("unshare", "--mount", "sh", "-c", gnomeHeadless)
	shell.Env, shell.Dir = d.base, d.home
	log, err := os.Create(d.log)
	if err != nil {
		t.Fatal(err)
	}
	shell.Stdout, shell.Stderr = log, log
	start(t, shell)
	log.Close()
	t.Cleanup(func() {
		if t.Failed() {
			d.keepLog(t)
		}
	})
	if d.conn, err = dbus.Connect(busOf(d.base)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.conn.Close() })
	d.shell = hudfocus.GNOMEShell{Conn: d.conn}
	waitWithin(t, 30*time.Second, "hud's extension to run in GNOME Shell", func() bool {
		info, err := d.extensionInfo(assets.GNOMEExtensionUUID)
		return err == nil && info["state"].Value() == 1.0
	})
	// The shell opens the overview at the end of its startup animation,
	// and logs that it started then.
	waitWithin(t, 30*time.Second, "GNOME Shell's startup", func() bool {
		b, _ := os.ReadFile(d.log)
		return bytes.Contains(b, []byte("GNOME Shell started at"))
	})
	shellObj := d.conn.Object("org.gnome.Shell", "/org/gnome/Shell")
	waitWithin(t, 10*time.Second, "the overview to close", func() bool {
		shellObj.SetProperty("org.gnome.Shell.OverviewActive", dbus.MakeVariant(false))
		v, err := shellObj.GetProperty("org.gnome.Shell.OverviewActive")
		return err == nil && v.Value() == false
	})
	d.clientEnv(t)
	d.checker = d.connectChecker(t)
}

// clientEnv finds XWayland's display (the shell logs it) and cookie, and
// gives them, with the Wayland display, to clients and to the services
// the bus starts.
func (d *gnomeDesk) clientEnv(t *testing.T) {
	t.Helper()
	re := regexp.MustCompile(`Using public X11 display (:\d+)`)
	var display, cookie string
	waitUntil(t, "XWayland's display", func() bool {
		b, _ := os.ReadFile(d.log)
		cookies, _ := filepath.Glob(filepath.Join(d.home, "run", ".mutter-Xwaylandauth.*"))
		if m := re.FindSubmatch(b); m != nil && len(cookies) == 1 {
			display, cookie = string(m[1]), cookies[0]
			return true
		}
		return false
	})
	d.env = append(append([]string(nil), d.base...), "WAYLAND_DISPLAY=wayland-0", "DISPLAY="+display, "XAUTHORITY="+cookie)
	runIn(t, d.env, d.home, "dbus-update-activation-environment", "WAYLAND_DISPLAY", "DISPLAY", "XAUTHORITY")
}

// connectChecker connects to the bus under the names GNOME Shell lets
// read its windows (the desktop portal's) and take screenshots (GNOME
// Screenshot's): it allows those to no other program.
func (d *gnomeDesk) connectChecker(t *testing.T) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(busOf(d.base))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	for _, name := range []string{"org.freedesktop.impl.portal.desktop.gnome", "org.gnome.Screenshot"} {
		if _, err := conn.RequestName(name, dbus.NameFlagDoNotQueue); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

// extensionInfo is what GNOME Shell says of an extension (state 1:
// enabled and running).
func (d *gnomeDesk) extensionInfo(uuid string) (map[string]dbus.Variant, error) {
	var info map[string]dbus.Variant
	err := d.conn.Object("org.gnome.Shell", "/org/gnome/Shell").
		Call("org.gnome.Shell.Extensions.GetExtensionInfo", 0, uuid).Store(&info)
	return info, err
}

// terminal opens a window titled title running sh -c command: foot, a
// native Wayland terminal, or xterm through XWayland; it returns the
// terminal's process once its window has the focus, as a new window takes
// it. Mutter gives it when the window first shows, a while after it lists
// the window on a loaded machine: a click before then would be undone.
func (d *gnomeDesk) terminal(t *testing.T, kind, title, command string) int {
	t.Helper()
	var cmd *exec.Cmd
	switch kind {
	case "foot":
		cmd = exec.Command("foot", "-T", title, "sh", "-c", command)
	case "xterm":
		cmd = exec.Command("xterm", "-title", title, "-e", "sh", "-c", command)
	}
	cmd.Env, cmd.Dir = d.env, d.home
	start(t, cmd)
	pid := cmd.Process.Pid
	d.titles[pid] = title
	d.waitFocused(t, pid, 15*time.Second)
	return pid
}

// focused is the process of the focused window, as hud's extension says
// (through hud's own backend), 0 for none.
func (d *gnomeDesk) focused(t *testing.T) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	pid, err := d.shell.Focused(ctx)
	if err != nil {
		t.Fatalf("asking hud's extension: %v", err)
	}
	return pid
}

// waitFocused waits, at most within, until hud's extension says pid's
// window has the focus and Mutter's window list says it of pid's title.
func (d *gnomeDesk) waitFocused(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	waitFocus(t, "GNOME Shell", func() int {
		if got := d.focused(t); got != pid || d.windows(t)[d.titles[pid]] {
			return got
		}
		return 0 // the extension says so, Mutter's list not yet
	}, pid, within)
}

// windows is Mutter's list of the windows, by title, each with whether it
// has the focus (org.gnome.Shell.Introspect, asked under the portal's
// name, which the shell may take a moment to notice).
func (d *gnomeDesk) windows(t *testing.T) map[string]bool {
	t.Helper()
	var list map[uint64]map[string]dbus.Variant
	var err error
	for range 50 {
		err = d.checker.Object("org.gnome.Shell", "/org/gnome/Shell/Introspect").
			Call("org.gnome.Shell.Introspect.GetWindows", 0).Store(&list)
		if err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("asking Mutter for its windows: %v", err)
	}
	titles := map[string]bool{}
	for _, w := range list {
		title, _ := w["title"].Value().(string)
		focused, _ := w["has-focus"].Value().(bool)
		titles[title] = focused
	}
	return titles
}

// activate focuses pid's window as a click on it would, through hud's
// extension.
func (d *gnomeDesk) activate(t *testing.T, pid int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := d.shell.Activate(ctx, []int{pid}); err != nil {
		t.Fatal(err)
	}
	d.waitFocused(t, pid, 2*time.Second)
}

// click runs `hud focus` on s with env and waits until s's terminal has
// the focus, within withinClick of the click's start; it returns how long
// that took.
func (d *gnomeDesk) click(t *testing.T, hud string, env []string, s *terminalSession) time.Duration {
	t.Helper()
	begin := time.Now()
	runIn(t, env, d.home, hud, "focus", s.id)
	d.waitFocused(t, s.pid, time.Until(begin.Add(withinClick)))
	return time.Since(begin)
}

// keepLog shows the end of the shell's log of a failed test, without the
// lines GJS repeats about its garbage collector, and copies it whole
// under testdata/out: an extension's JS errors run over many lines.
func (d *gnomeDesk) keepLog(t *testing.T) {
	b, _ := os.ReadFile(d.log)
	var keep []string
	for line := range strings.Lines(string(b)) {
		if !strings.Contains(line, "JSAPI") && !strings.Contains(line, "offending signal") &&
			!strings.Contains(line, "== Stack trace") && strings.TrimSpace(line) != "" {
			keep = append(keep, line)
		}
	}
	t.Logf("gnome-shell's log:\n%s", strings.Join(keep[max(0, len(keep)-60):], ""))
	out := filepath.Join("..", "..", "testdata", "out", strings.ReplaceAll(t.Name(), "/", "-")+".gnome-shell.log")
	if os.WriteFile(out, b, 0o644) == nil {
		t.Logf("gnome-shell's whole log: %s", out)
	}
}
