package focus

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeSocket serves each connection on a Unix socket with answer, and
// keeps what it was asked.
type fakeSocket struct {
	path string
	mu   sync.Mutex
	got  []string
}

func serveSocket(t *testing.T, answer func(c net.Conn, record func(string))) *fakeSocket {
	t.Helper()
	dir, err := os.MkdirTemp("", "hud-sock")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	f := &fakeSocket{path: filepath.Join(dir, "ipc.sock")}
	l, err := net.Listen("unix", f.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	record := func(s string) { f.mu.Lock(); f.got = append(f.got, s); f.mu.Unlock() }
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); answer(c, record) }()
		}
	}()
	return f
}

func (f *fakeSocket) asked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

// swayTree is a tree as sway 1.7 writes it, cut to what matters: two
// workspaces, a foot (pid 4242) and, floating, an XWayland xterm (4300),
// which has the focus.
const swayTree = `{"id":1,"type":"root","nodes":[{"id":3,"type":"output","name":"HEADLESS-1","nodes":[
 {"id":4,"type":"workspace","name":"1","nodes":[{"id":7,"type":"con","pid":4242,"focused":false,"app_id":"foot","nodes":[],"floating_nodes":[]}],"floating_nodes":[]},
 {"id":5,"type":"workspace","name":"2","nodes":[],"floating_nodes":[{"id":9,"type":"floating_con","pid":4300,"focused":true,"shell":"xwayland","nodes":[],"floating_nodes":[]}]}]}]}`

// swayServer answers GET_TREE with tree and RUN_COMMAND with success,
// framed as i3 IPC.
func swayServer(tree string) func(c net.Conn, record func(string)) {
	return func(c net.Conn, record func(string)) {
		for {
			head := make([]byte, 14)
			if _, err := io.ReadFull(c, head); err != nil {
				return
			}
			size, kind := binary.NativeEndian.Uint32(head[6:]), binary.NativeEndian.Uint32(head[10:])
			payload := make([]byte, size)
			io.ReadFull(c, payload)
			reply := tree
			if kind == swayRunCommand {
				record(string(payload))
				reply = `[{"success":true}]`
			}
			out := append([]byte(swayMagic), binary.NativeEndian.AppendUint32(nil, uint32(len(reply)))...)
			out = binary.NativeEndian.AppendUint32(out, kind)
			c.Write(append(out, reply...))
		}
	}
}

func TestSway(t *testing.T) {
	f := serveSocket(t, swayServer(swayTree))
	s := Sway{Socket: f.path, UID: os.Getuid()}
	ctx := context.Background()
	if pid, err := s.Focused(ctx); pid != 4300 || err != nil {
		t.Errorf("Focused = %d, %v; want 4300", pid, err)
	}
	// Claude (100) under a shell (99) under foot: foot's con is focused.
	if err := s.Activate(ctx, []int{100, 99, 4242, 1000}); err != nil {
		t.Fatal(err)
	}
	// Nearest first: a tmux client under the xterm, the xterm wins over a
	// farther ancestor that also has a window.
	if err := s.Activate(ctx, []int{4300, 4242}); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(f.asked(), "; "), "[con_id=7] focus; [con_id=9] focus"; got != want {
		t.Errorf("commands %q, want %q", got, want)
	}
	if err := s.Activate(ctx, []int{100, 99}); !errors.Is(err, ErrNoWindow) {
		t.Errorf("Activate of a process without a window: %v, want ErrNoWindow", err)
	}
}

func TestSwayRefusals(t *testing.T) {
	ctx := context.Background()
	t.Run("a socket of another user", func(t *testing.T) {
		f := serveSocket(t, swayServer(swayTree))
		err := Sway{Socket: f.path, UID: os.Getuid() + 1}.Activate(ctx, []int{4242})
		if err == nil || !strings.Contains(err.Error(), "not talking to the compositor's socket") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a command sway refused", func(t *testing.T) {
		f := serveSocket(t, func(c net.Conn, record func(string)) {
			swayServer(swayTree)(&refusing{Conn: c}, record)
		})
		err := Sway{Socket: f.path, UID: os.Getuid()}.Activate(ctx, []int{4242})
		if err == nil || !strings.Contains(err.Error(), "sway refused to focus the window: no such con") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a server that never answers", func(t *testing.T) {
		f := serveSocket(t, func(c net.Conn, _ func(string)) { io.Copy(io.Discard, c) })
		ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		if _, err := (Sway{Socket: f.path, UID: os.Getuid()}).Focused(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want the deadline", err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("took %v", took)
		}
	})
	t.Run("an oversized reply", func(t *testing.T) {
		var head bytes.Buffer
		head.WriteString(swayMagic)
		head.Write(binary.NativeEndian.AppendUint32(nil, maxSwayReply+1))
		head.Write(binary.NativeEndian.AppendUint32(nil, swayGetTree))
		if _, err := readSwayReply(&head, swayGetTree); err == nil {
			t.Error("read a reply over the bound")
		}
	})
}

// refusing turns the success sway's fake sends into a refusal.
type refusing struct{ net.Conn }

func (r *refusing) Write(b []byte) (int, error) {
	out := bytes.Replace(b, []byte(`[{"success":true}]`), []byte(`[{"success":false,"error":"no such con"}]`), 1)
	if len(out) != len(b) {
		binary.NativeEndian.PutUint32(out[6:], uint32(len(out)-14))
	}
	_, err := r.Conn.Write(out)
	return len(b), err
}

// The Hyprland exchange: requests as hyprctl sends them (flags, a slash,
// the command), answers in the form Hyprland's HyprCtl.cpp writes them
// (testdata/hyprland-clients.json).
func TestHyprland(t *testing.T) {
	clients, err := os.ReadFile("testdata/hyprland-clients.json")
	if err != nil {
		t.Fatal(err)
	}
	active := `{
    "address": "0x5b6f1c31d2a0",
    "mapped": true,
    "class": "XTerm",
    "pid": 4300,
    "xwayland": true,
    "focusHistoryID": 0
}`
	f := serveSocket(t, func(c net.Conn, record func(string)) {
		req := make([]byte, 1024)
		n, _ := c.Read(req)
		record(string(req[:n]))
		switch r := string(req[:n]); {
		case r == "j/clients":
			c.Write(clients)
		case r == "j/activewindow":
			c.Write([]byte(active))
		case strings.HasPrefix(r, "dispatch focuswindow address:0x"):
			c.Write([]byte("ok"))
		default:
			c.Write([]byte("unknown request"))
		}
	})
	h := Hyprland{Socket: f.path, UID: os.Getuid()}
	ctx := context.Background()
	if pid, err := h.Focused(ctx); pid != 4300 || err != nil {
		t.Errorf("Focused = %d, %v; want 4300", pid, err)
	}
	if err := h.Activate(ctx, []int{100, 4242}); err != nil {
		t.Fatal(err)
	}
	// 5000's only window is unmapped (a closed foot server window).
	if err := h.Activate(ctx, []int{5000}); !errors.Is(err, ErrNoWindow) {
		t.Errorf("Activate of an unmapped window: %v, want ErrNoWindow", err)
	}
	want := "j/activewindow; j/clients; dispatch focuswindow address:0x5b6f1c2a8e40; j/clients"
	if got := strings.Join(f.asked(), "; "); got != want {
		t.Errorf("asked %q\nwant  %q", got, want)
	}
}

func TestHyprlandNoActiveWindowAndRefusal(t *testing.T) {
	f := serveSocket(t, func(c net.Conn, _ func(string)) {
		req := make([]byte, 1024)
		n, _ := c.Read(req)
		switch string(req[:n]) {
		case "j/activewindow":
			c.Write([]byte("{}"))
		case "j/clients":
			c.Write([]byte(`[{"address":"0xabc","mapped":true,"pid":7}]`))
		default:
			c.Write([]byte("Window not found"))
		}
	})
	h := Hyprland{Socket: f.path, UID: os.Getuid()}
	if pid, err := h.Focused(context.Background()); pid != 0 || err != nil {
		t.Errorf("Focused with no window = %d, %v", pid, err)
	}
	if err := h.Activate(context.Background(), []int{7}); err == nil || !strings.Contains(err.Error(), `"Window not found"`) {
		t.Errorf("err = %v", err)
	}
}

func TestHyprlandAddresses(t *testing.T) {
	for addr, ok := range map[string]bool{"0x5b6f1c2a8e40": true, "0xABC": true, "0x": false, "5b6f": false,
		"0x12; dispatch exec sh": false, "0x12\nexec": false, "0x11112222333344445": false} {
		if got := isHexAddress(addr); got != ok {
			t.Errorf("isHexAddress(%q) = %v", addr, got)
		}
	}
}

func TestHyprlandSocket(t *testing.T) {
	dir := t.TempDir()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := HyprlandSocket(env(map[string]string{"HYPRLAND_INSTANCE_SIGNATURE": "abc_123", "XDG_RUNTIME_DIR": dir})); got != "/tmp/hypr/abc_123/.socket.sock" {
		t.Errorf("without a socket under the runtime dir: %q", got)
	}
	os.MkdirAll(filepath.Join(dir, "hypr", "abc_123"), 0o700)
	os.WriteFile(filepath.Join(dir, "hypr", "abc_123", ".socket.sock"), nil, 0o600)
	if got := HyprlandSocket(env(map[string]string{"HYPRLAND_INSTANCE_SIGNATURE": "abc_123", "XDG_RUNTIME_DIR": dir})); got != filepath.Join(dir, "hypr", "abc_123", ".socket.sock") {
		t.Errorf("with one: %q", got)
	}
	if got := HyprlandSocket(env(map[string]string{"HYPRLAND_INSTANCE_SIGNATURE": "../../etc"})); got != "" {
		t.Errorf("a signature that climbs: %q", got)
	}
}

func TestDetectCompositor(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "XFCE"}, ""},
		{map[string]string{"SWAYSOCK": "/run/user/1/sway-ipc.sock", "XDG_CURRENT_DESKTOP": "sway"}, "sway"},
		{map[string]string{"HYPRLAND_INSTANCE_SIGNATURE": "abc", "XDG_CURRENT_DESKTOP": "Hyprland"}, "hyprland"},
		{map[string]string{"XDG_CURRENT_DESKTOP": "KDE"}, "kwin"},
		{map[string]string{"XDG_CURRENT_DESKTOP": "ubuntu:GNOME"}, "gnome-shell"},
	} {
		c := DetectCompositor(env(tc.env))
		got := ""
		if c != nil {
			got = c.Name()
		}
		if got != tc.want {
			t.Errorf("DetectCompositor(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

// fakeCompositor answers from fixed values.
type fakeCompositor struct {
	focused   int
	err       error
	activated []int
}

func (f *fakeCompositor) Name() string { return "fake" }
func (f *fakeCompositor) Activate(_ context.Context, pids []int) error {
	if f.err != nil {
		return f.err
	}
	f.activated = pids
	return nil
}
func (f *fakeCompositor) Focused(context.Context) (int, error) { return f.focused, f.err }

func TestDesktopRaise(t *testing.T) {
	ancestry := func(pid int) []int { return []int{pid, 50, 40} }
	c := &fakeCompositor{}
	d := Desktop{Compositor: c, X11: X11{Display: "none"}, Ancestry: ancestry}
	if err := d.Raise(context.Background(), 60, ""); err != nil || len(c.activated) != 3 {
		t.Errorf("Raise = %v, activated %v", err, c.activated)
	}
	// Its window has the focus already: left as it is.
	c = &fakeCompositor{focused: 50}
	d.Compositor = c
	if err := d.Raise(context.Background(), 60, ""); err != nil || c.activated != nil {
		t.Errorf("Raise of the focused window = %v, activated %v", err, c.activated)
	}
	// The compositor cannot tell and there is no X display: its error.
	c.err = ErrNoWindow
	d.X11 = X11{Display: "", Ancestry: ancestry}
	t.Setenv("DISPLAY", "")
	if err := d.Raise(context.Background(), 60, ""); !errors.Is(err, ErrNoWindow) {
		t.Errorf("Raise = %v, want ErrNoWindow", err)
	}
}

func TestLookingAsksTheCompositor(t *testing.T) {
	lines := map[int][]int{10: {10, 9, 8}, 20: {20, 19, 18}}
	children := map[int]int{8: 1, 18: 2}
	for _, tc := range []struct {
		name    string
		focused int
		pid     int
		want    bool
	}{
		{"its terminal has the focus", 8, 10, true},
		{"another window has it", 18, 10, false},
		{"no window has it", 0, 10, false},
		{"its terminal, with another tab", 18, 20, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Looking{Compositor: &fakeCompositor{focused: tc.focused}, Display: "-",
				Ancestry: func(pid int) []int { return lines[pid] },
				Children: func(pid int) int { return children[pid] }, known: &servers{}}
			got, err := l.activeIs(context.Background(), [][]int{lines[tc.pid]}, "")
			if got != tc.want || err != nil {
				t.Errorf("looking = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
