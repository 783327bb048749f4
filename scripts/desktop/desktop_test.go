package desktop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png"
	"io"
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

// standIn is one stand-in Claude process (see ./claude).
type standIn struct {
	t       *testing.T
	name    string // project name
	id      string // session id
	dir     string // project directory
	scratch string
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Scanner
	edits   map[string]string
}

func startClaude(t *testing.T, claudeBin, hookCommand, home, name, id string, edits map[string]string) *standIn {
	t.Helper()
	dir := filepath.Join(home, "src", name)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := &standIn{t: t, name: name, id: id, dir: dir, scratch: t.TempDir(), edits: edits}
	s.cmd = exec.Command(claudeBin)
	s.cmd.Dir = dir
	s.cmd.Env = append(personEnv(home), "HUD_HOOK_COMMAND="+hookCommand)
	s.cmd.Stderr = os.Stderr
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.out = bufio.NewScanner(stdout)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.exit() })
	return s
}

// send plays the recorded event file through the hook, rewritten for this
// session, and returns when the hook has exited.
func (s *standIn) send(event string) time.Time {
	s.t.Helper()
	s.writeLine(s.prepare(event))
	if !s.out.Scan() {
		s.t.Fatalf("stand-in %s died: %v", s.name, s.out.Err())
	}
	reply := s.out.Text()
	var ns int64
	if _, err := fmt.Sscanf(reply, "ok %d", &ns); err != nil {
		s.t.Fatalf("%s %s: %s", s.name, event, reply)
	}
	return time.Unix(0, ns)
}

// writeLine hands the stand-in the path of an event to play.
func (s *standIn) writeLine(path string) { fmt.Fprintln(s.in, path) }

// prepare writes the recorded event file, rewritten for this session,
// and returns its path.
func (s *standIn) prepare(event string) string {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "events", event+".json"))
	if err != nil {
		s.t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(b, &ev); err != nil {
		s.t.Fatal(err)
	}
	ev["session_id"] = s.id
	ev["cwd"] = s.dir
	ev["transcript_path"] = filepath.Join(s.scratch, s.id+".jsonl")
	if _, ok := ev["prompt"]; ok {
		ev["prompt"] = s.edits["prompt"]
	}
	if in, ok := ev["tool_input"].(map[string]any); ok {
		in["command"] = s.edits["command"]
	}
	b, _ = json.Marshal(ev)
	path := filepath.Join(s.scratch, event+".json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// exit ends the stand-in as /exit ends Claude Code.
func (s *standIn) exit() {
	if s.cmd.ProcessState != nil {
		return
	}
	s.in.Close()
	s.cmd.Wait()
}

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
