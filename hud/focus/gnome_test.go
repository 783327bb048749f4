package focus

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/internal/bustest"
)

// fakeShell is hud's extension as GNOME Shell would serve it, with one
// window per process in windows.
type fakeShell struct {
	windows []uint32
	focused uint32
	asked   chan []uint32
	block   chan struct{}
}

func (f *fakeShell) Activate(pids []uint32) (uint32, *dbus.Error) {
	if f.block != nil {
		<-f.block
	}
	f.asked <- pids
	for _, pid := range pids {
		if slices.Contains(f.windows, pid) {
			f.focused = pid
			return pid, nil
		}
	}
	return 0, nil
}

func (f *fakeShell) FocusedPid() (uint32, *dbus.Error) { return f.focused, nil }

// gnomeBus starts a private bus and returns a connection to it; with
// shell set, a second connection owns org.gnome.Shell, and with it
// exports shell there as the extension does.
func gnomeBus(t *testing.T, owned bool, shell *fakeShell) *dbus.Conn {
	t.Helper()
	addr := bustest.Start(t)
	connect := func() *dbus.Conn {
		conn, err := dbus.Connect(addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	if owned {
		server := connect()
		if shell != nil {
			if err := server.Export(shell, gnomeShellPath, gnomeShellIface); err != nil {
				t.Fatal(err)
			}
		}
		if reply, err := server.RequestName(gnomeShellName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
			t.Fatalf("owning %s: %v %v", gnomeShellName, reply, err)
		}
	}
	return connect()
}

// Activate hands the extension the ancestry, nearest first and without
// what no process can be; the process it found a window for means
// success, 0 means ErrNoWindow.
func TestGNOMEShellActivate(t *testing.T) {
	shell := &fakeShell{windows: []uint32{300, 301}, asked: make(chan []uint32, 4)}
	g := GNOMEShell{Conn: gnomeBus(t, true, shell)}
	ctx := context.Background()

	if err := g.Activate(ctx, []int{500, 400, 300, 1}); err != nil {
		t.Fatalf("Activate: %v", err)
	}
	if got := <-shell.asked; !slices.Equal(got, []uint32{500, 400, 300, 1}) {
		t.Errorf("the extension was asked about %v", got)
	}
	if pid, err := g.Focused(ctx); err != nil || pid != 300 {
		t.Errorf("Focused = %d, %v; want 300", pid, err)
	}

	err := g.Activate(ctx, []int{900, 800})
	if !errors.Is(err, ErrNoWindow) {
		t.Errorf("no window of theirs: err = %v, want ErrNoWindow", err)
	}
	<-shell.asked
	if err := g.Activate(ctx, []int{0, -1}); !errors.Is(err, ErrNoWindow) {
		t.Errorf("no process at all: err = %v, want ErrNoWindow", err)
	}
	if len(shell.asked) != 0 {
		t.Error("the extension was asked about no process")
	}
}

// Focused says 0 when no window has the focus.
func TestGNOMEShellFocusedNone(t *testing.T) {
	g := GNOMEShell{Conn: gnomeBus(t, true, &fakeShell{})}
	if pid, err := g.Focused(context.Background()); err != nil || pid != 0 {
		t.Errorf("Focused = %d, %v; want 0, nil", pid, err)
	}
}

// GNOME Shell without the extension: the error says so, and how to get it
// running. Without a shell at all, it says that instead.
func TestGNOMEShellWithoutTheExtension(t *testing.T) {
	ctx := context.Background()
	g := GNOMEShell{Conn: gnomeBus(t, true, nil)}
	for name, call := range map[string]func() error{
		"Activate": func() error { return g.Activate(ctx, []int{300}) },
		"Focused":  func() error { _, err := g.Focused(ctx); return err },
	} {
		err := call()
		if !errors.Is(err, ErrNoGNOMEExtension) {
			t.Errorf("%s: err = %v, want ErrNoGNOMEExtension", name, err)
			continue
		}
		for _, hint := range []string{"hud install", "gnome-extensions enable " + assets.GNOMEExtensionUUID, "log out"} {
			if !strings.Contains(err.Error(), hint) {
				t.Errorf("%s: %q does not say %q", name, err, hint)
			}
		}
	}

	_, err := GNOMEShell{Conn: gnomeBus(t, false, nil)}.Focused(ctx)
	if err == nil || errors.Is(err, ErrNoGNOMEExtension) || !strings.Contains(err.Error(), "GNOME Shell is not on the session bus") {
		t.Errorf("no shell: err = %v", err)
	}
}

// A shell that does not answer holds the call no longer than the
// caller's deadline.
func TestGNOMEShellHonoursTheDeadline(t *testing.T) {
	shell := &fakeShell{windows: []uint32{300}, asked: make(chan []uint32, 1), block: make(chan struct{})}
	g := GNOMEShell{Conn: gnomeBus(t, true, shell)}
	t.Cleanup(func() { close(shell.block) })
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := g.Activate(ctx, []int{300})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the call took %v past a 200ms deadline", took)
	}
}

// The zero value calls on the session bus ($DBUS_SESSION_BUS_ADDRESS).
// The shared connection lives as long as the process, so the check runs
// in a process of its own, whose bus is this test's.
func TestGNOMEShellZeroValue(t *testing.T) {
	if os.Getenv("HUD_TEST_GNOME_ZERO") == "1" {
		pid, err := GNOMEShell{}.Focused(context.Background())
		if err != nil || pid != 4242 {
			t.Fatalf("Focused = %d, %v; want 4242", pid, err)
		}
		return
	}
	addr := bustest.Start(t)
	server, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	server.Export(&fakeShell{focused: 4242}, gnomeShellPath, gnomeShellIface)
	if _, err := server.RequestName(gnomeShellName, dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGNOMEShellZeroValue$", "-test.count=1")
	cmd.Env = append(os.Environ(), "HUD_TEST_GNOME_ZERO=1", "DBUS_SESSION_BUS_ADDRESS="+addr)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// The extension's two sources export what GNOMEShell calls: the same
// object path, interface and methods, with the signatures called here.
func TestGNOMEShellMatchesTheExtension(t *testing.T) {
	var ifaces []string
	for _, variant := range []string{"legacy", "esm"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "assets", "gnome-shell", variant, "extension.js"))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, want := range []string{
			"'" + string(gnomeShellPath) + "'",
			`<interface name="` + gnomeShellIface + `">`,
			`<method name="Activate">`, `<arg name="pids" type="au" direction="in"/>`,
			`<method name="FocusedPid">`, `<arg name="pid" type="u" direction="out"/>`,
			"Main.activateWindow(", ".unexport()",
		} {
			if !strings.Contains(src, want) {
				t.Errorf("%s/extension.js lacks %s", variant, want)
			}
		}
		start, end := strings.Index(src, "const IFACE"), strings.Index(src, "</node>`;")
		if start < 0 || end < start {
			t.Fatalf("%s/extension.js: no IFACE", variant)
		}
		ifaces = append(ifaces, src[start:end])
		if n := strings.Count(src, "<method "); n != 2 {
			t.Errorf("%s/extension.js exports %d methods, want 2", variant, n)
		}
	}
	if ifaces[0] != ifaces[1] {
		t.Error("the two extension.js declare different interfaces")
	}
}
