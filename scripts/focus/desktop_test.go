package focus

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// desktop is an X server with a window manager, and a connection to it
// to read back what is active.
type desktop struct {
	display string
	conn    *xgb.Conn
	root    xproto.Window
	atoms   map[string]xproto.Atom
}

// startDesktop starts Xvfb on a free display (it picks one and says which:
// -displayfd) and xfwm4 on it, and waits until the window manager runs.
func startDesktop(t *testing.T) *desktop {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1024x768x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	start(t, x)
	w.Close()
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		t.Fatalf("Xvfb said no display: %v", err)
	}
	d := &desktop{display: ":" + strings.TrimSpace(line), atoms: map[string]xproto.Atom{}}
	if d.conn, err = xgb.NewConnDisplay(d.display); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.conn.Close)
	d.root = xproto.Setup(d.conn).DefaultScreen(d.conn).Root

	home := t.TempDir()
	wm := exec.Command("xfwm4", "--compositor=off", "--sm-client-disable")
	wm.Env = personEnv(home, d.display)
	start(t, wm)
	d.waitFor(t, "the window manager", d.hasWM)
	return d
}

// start starts cmd and stops it when the test ends.
func start(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() {
		// SIGTERM first: Xvfb removes its lock file and socket then, and a
		// display left locked would be skipped by the next test.
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
}

func (d *desktop) atom(t *testing.T, name string) xproto.Atom {
	t.Helper()
	a := d.atomNamed(name)
	if a == 0 {
		t.Fatalf("X atom %s", name)
	}
	return a
}

func (d *desktop) atomNamed(name string) xproto.Atom {
	if a, ok := d.atoms[name]; ok {
		return a
	}
	r, err := xproto.InternAtom(d.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0
	}
	d.atoms[name] = r.Atom
	return r.Atom
}

// property reads a 32-bit list property of w.
func (d *desktop) property(t *testing.T, w xproto.Window, name string) []uint32 {
	t.Helper()
	r, err := xproto.GetProperty(d.conn, false, w, d.atom(t, name), xproto.AtomAny, 0, 1024).Reply()
	if err != nil || r.Format != 32 {
		return nil
	}
	var out []uint32
	for i := 0; i+4 <= len(r.Value); i += 4 {
		out = append(out, xgb.Get32(r.Value[i:]))
	}
	return out
}

func (d *desktop) windows(t *testing.T, name string) []xproto.Window {
	var ws []xproto.Window
	for _, v := range d.property(t, d.root, name) {
		ws = append(ws, xproto.Window(v))
	}
	return ws
}

// hasWM reports whether an EWMH window manager runs.
func (d *desktop) hasWM() bool {
	r, err := xproto.GetProperty(d.conn, false, d.root, d.atomNamed("_NET_SUPPORTING_WM_CHECK"), xproto.AtomWindow, 0, 1).Reply()
	return err == nil && len(r.Value) == 4
}

func (d *desktop) active(t *testing.T) xproto.Window {
	if v := d.property(t, d.root, "_NET_ACTIVE_WINDOW"); len(v) > 0 {
		return xproto.Window(v[0])
	}
	return 0
}

func (d *desktop) waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 15s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// terminal opens an xterm titled title running argv, and returns its
// window once the window manager lists it.
func (d *desktop) terminal(t *testing.T, home, title string, argv ...string) xproto.Window {
	t.Helper()
	cmd := exec.Command("xterm", append([]string{"-title", title, "-e"}, argv...)...)
	cmd.Env = personEnv(home, d.display)
	cmd.Dir = home
	start(t, cmd)
	return d.windowOf(t, title, cmd.Process.Pid)
}

// windowOf waits until the window manager lists a window of process pid,
// and returns it.
func (d *desktop) windowOf(t *testing.T, what string, pid int) xproto.Window {
	t.Helper()
	var win xproto.Window
	d.waitFor(t, "the window of "+what, func() bool {
		for _, w := range d.windows(t, "_NET_CLIENT_LIST") {
			if p := d.property(t, w, "_NET_WM_PID"); len(p) == 1 && int(p[0]) == pid {
				win = w
				return true
			}
		}
		return false
	})
	return win
}

// waitActive waits until w is the active window.
func (d *desktop) waitActive(t *testing.T, w xproto.Window) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for d.active(t) != w {
		if time.Now().After(deadline) {
			t.Fatalf("the active window is 0x%x, want 0x%x", uint32(d.active(t)), uint32(w))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fakeOpener puts first on env's PATH (changed in place) an xdg-open that
// writes the path it was asked to open, one a line, to a file in home,
// rather than start a file manager on the desktop; it returns that file.
func fakeOpener(t *testing.T, home string, env []string) string {
	t.Helper()
	bin := filepath.Join(home, "bin")
	opened := filepath.Join(home, "opened")
	writeFile(t, filepath.Join(bin, "xdg-open"), "#!/bin/sh\nprintf '%s\\n' \"$1\" >> "+opened+"\n")
	if err := os.Chmod(filepath.Join(bin, "xdg-open"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			env[i] = "PATH=" + bin + ":" + v
		}
	}
	return opened
}
