package desktop

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/scripts/claudestandin"
	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// rig is what run.sh hands the tests.
type rig struct {
	hud, hook string // the binaries under test
	out       string // where screenshots go
}

func requireDesktop(t *testing.T) rig {
	t.Helper()
	if os.Getenv("HUD_DESKTOP") != "1" {
		t.Skip("not on the test desktop: run scripts/desktop/run.sh (make desktop-test)")
	}
	r := rig{hud: os.Getenv("HUD_BIN"), hook: os.Getenv("HUD_HOOK_BIN"), out: os.Getenv("HUD_OUT")}
	if r.hud == "" || r.hook == "" || r.out == "" {
		t.Fatal("run.sh must set HUD_BIN, HUD_HOOK_BIN and HUD_OUT")
	}
	return r
}

// personEnv is the environment of a process the person starts: their
// desktop session, a home of the test's own.
func personEnv(home string) []string {
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	for _, k := range []string{"DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// installedHome is a person's home for one test, wired as a person wires
// it: `hud install` has put the hook into ~/.claude/settings.json, and the
// stand-ins run the command it wrote. env is the person's environment.
func installedHome(t *testing.T, r rig) (home string, env []string) {
	t.Helper()
	home = claudestandin.TempHome(t)
	env = personEnv(home)
	install := exec.Command(r.hud, "install", "--hook", r.hook)
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("hud install: %v\n%s", err, out)
	}
	return home, env
}

// statusLine hands `hud statusline` what Claude Code gives its status
// line (payload, a JSON document), in the environment env.
func statusLine(t *testing.T, r rig, env []string, payload string) {
	t.Helper()
	cmd := exec.Command(r.hud, "statusline")
	cmd.Env, cmd.Stdin = env, strings.NewReader(payload)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hud statusline: %v\n%s", err, out)
	}
}

// hudProcess is a running bin/hud.
type hudProcess struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	done   chan struct{} // closed when it has exited, with err set
	err    error
}

func startHud(t *testing.T, r rig, env []string) *hudProcess {
	t.Helper()
	h := &hudProcess{cmd: exec.Command(r.hud), stderr: &syncBuffer{}, done: make(chan struct{})}
	h.cmd.Env = env
	h.cmd.Stderr = h.stderr
	h.cmd.WaitDelay = 2 * time.Second // a child holding stderr open must not hang the test
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		h.err = h.cmd.Wait()
		close(h.done)
	}()
	t.Cleanup(func() {
		select {
		case <-h.done:
		default:
			h.cmd.Process.Kill()
			<-h.done
		}
		t.Logf("hud's log:\n%s", h.stderr.String())
	})
	return h
}

// standIn is one stand-in Claude process (see ./claude), the test's
// edits applied to every event it plays.
type standIn struct {
	*claudestandin.Process
	name  string // project name
	dir   string // project directory
	edits map[string]string
}

func startClaude(t *testing.T, claudeBin, hookCommand, home, name, id string, edits map[string]string) *standIn {
	t.Helper()
	dir := filepath.Join(home, "src", name)
	p := claudestandin.Start(t, claudeBin, hookCommand, personEnv(home), dir, id)
	return &standIn{Process: p, name: name, dir: dir, edits: edits}
}

// send plays the recorded event file through the hook, rewritten for this
// session, and returns when the hook has exited.
func (s *standIn) send(event string) time.Time {
	return s.Send(s.eventFile(event), s.edit)
}

// eventFile is the recorded event of that name.
func (s *standIn) eventFile(event string) string {
	return filepath.Join("testdata", "events", event+".json")
}

// edit applies the test's edits to an event.
func (s *standIn) edit(ev map[string]any) {
	if _, ok := ev["prompt"]; ok {
		ev["prompt"] = s.edits["prompt"]
	}
	if in, ok := ev["tool_input"].(map[string]any); ok {
		in["command"] = s.edits["command"]
	}
}

// exit ends the stand-in as /exit ends Claude Code.
func (s *standIn) exit() { s.Exit() }

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// seen is what the panel can read of the item at one moment.
type seen struct {
	icon    string // the assets icon the pixmap is, "name/count"
	tooltip string
	title   string
	labels  []string
}

func (s seen) String() string {
	return fmt.Sprintf("icon %s, title %q\ntooltip %q\nmenu:\n  %s", s.icon, s.title, s.tooltip, strings.Join(s.labels, "\n  "))
}

func read(t *testing.T, item *sni.Item) (seen, error) {
	t.Helper()
	var s seen
	tt, err := item.ToolTip()
	if err != nil {
		return s, err
	}
	s.tooltip = tt.Title
	if s.title, err = item.Title(); err != nil {
		return s, err
	}
	px, err := item.IconPixmap()
	if err != nil {
		return s, err
	}
	s.icon = whichIcon(t, px)
	menu, err := item.Menu()
	if err != nil {
		return s, err
	}
	s.labels = sni.VisibleLabels(menu)
	return s, nil
}

// waitFor reads the item until ok accepts what it shows, or fails after
// two seconds ("within a blink" with a wide margin for a loaded CI box).
func waitFor(t *testing.T, item *sni.Item, step string, ok func(seen) bool) seen {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	var last seen
	var err error
	for time.Now().Before(deadline) {
		if last, err = read(t, item); err == nil && ok(last) {
			t.Logf("%s:\n%s", step, last)
			return last
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s: the tray never showed what it should. Last seen (err %v):\n%s", step, err, last)
	return last
}

// whichIcon names the embedded icon whose pixels px carries.
func whichIcon(t *testing.T, px []sni.Pixmap) string {
	t.Helper()
	if len(px) != 1 {
		return fmt.Sprintf("%d pixmaps", len(px))
	}
	for _, name := range assets.IconNames {
		for count := 0; count <= assets.MaxBadge+1; count++ {
			b, err := assets.Icon(name, count, false)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(argb(t, b), px[0].Pix) {
				if count < 2 {
					count = 1
				}
				return fmt.Sprintf("%s/%d", name, count)
			}
		}
	}
	return fmt.Sprintf("unknown %dx%d pixmap", px[0].W, px[0].H)
}

// argb converts a PNG to the pixmap bytes systray sends (ARGB32).
func argb(t *testing.T, png []byte) []byte {
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			out = append(out, byte(a), byte(r), byte(g), byte(bl))
		}
	}
	return out
}

func hasLabels(s seen, want ...string) bool {
	for _, w := range want {
		if !slices.Contains(s.labels, w) {
			return false
		}
	}
	return true
}

func screenshot(t *testing.T, r rig, name string) string {
	t.Helper()
	if err := os.MkdirAll(r.out, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(r.out, name)
	if out, err := exec.Command("import", "-window", "root", path).CombinedOutput(); err != nil {
		t.Fatalf("screenshot: %v\n%s", err, out)
	}
	t.Logf("screenshot: %s", path)
	return path
}

func sessionBus(t *testing.T) *dbus.Conn {
	t.Helper()
	conn, err := dbus.SessionBus()
	if err != nil {
		t.Fatalf("session bus: %v", err)
	}
	return conn
}
