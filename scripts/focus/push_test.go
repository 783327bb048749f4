package focus

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// The away push from the real tray, the idle time read from the X server
// (Xvfb's screensaver extension), to a loopback listener: while the
// person moves the mouse, none; once they have been away push_after, one
// POST with the session, what it waits for and since when; and no second
// one for the same wait.
func TestAwayPushFromTheTray(t *testing.T) {
	r := startNotifying(t)
	const pushAfter = 2 * time.Second
	got := listenForPushes(t, r.home, pushAfter)
	s := newTerminalSession(t, r.home, "epsilon", "f0c05e55-0000-4000-8000-0000000000e1")
	s.win = r.d.terminal(t, r.home, "claude-epsilon", "sh", "-c", s.command(r.hook))
	waitSession(t, r.hud, r.home, s.id)
	item, _ := r.startTray(t)
	waitRow(t, item, "epsilon")

	if err := xtest.Init(r.d.conn); err != nil {
		t.Fatalf("the X server has no XTEST: %v", err)
	}
	// The person is at the desk, moving the mouse, while the session waits.
	s.send(t, "PermissionRequest")
	waitRow(t, item, "epsilon — waiting")
	waited := time.Now()
	var left time.Time // the last input
	for i := 0; time.Since(waited) < 2*pushAfter; i++ {
		xtest.FakeInput(r.d.conn, xproto.MotionNotify, 0, 0, r.d.root, int16(100+i%50), 100, 0)
		r.d.conn.Sync()
		left = time.Now()
		time.Sleep(200 * time.Millisecond)
	}
	if p := got(); len(p) != 0 {
		t.Fatalf("pushed while the person was at the keyboard: %q", p)
	}
	// They left: push_after later, one push.
	deadline := left.Add(pushAfter + 5*time.Second)
	for len(got()) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	p := got()
	if len(p) != 1 {
		t.Fatalf("pushes after the person left: %q, want one", p)
	}
	if gap := time.Since(left); gap < pushAfter {
		t.Errorf("pushed %v after the person left, before push_after", gap)
	}
	want := "epsilon needs you | high | permission for Bash\nWaiting since " + waited.Format("15:04")
	if !strings.HasPrefix(p[0], want) {
		t.Errorf("push %q, want %q…", p[0], want)
	}
	time.Sleep(pushAfter)
	if p := got(); len(p) != 1 {
		t.Errorf("the same wait pushed again: %q", p)
	}
}

// listenForPushes starts a loopback listener, has the person's hud push
// to it after pushAfter away (their config.toml in home), and returns
// what it was sent so far: each push as "title | priority | body".
func listenForPushes(t *testing.T, home string, pushAfter time.Duration) func() []string {
	t.Helper()
	var (
		mu    sync.Mutex
		posts []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		title, _ := new(mime.WordDecoder).DecodeHeader(req.Header.Get("Title"))
		mu.Lock()
		posts = append(posts, title+" | "+req.Header.Get("Priority")+" | "+string(body))
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	writeFile(t, filepath.Join(home, ".config", "hud", "config.toml"),
		fmt.Sprintf("[notifications]\npush_url = %q\npush_after = %q\n", srv.URL+"/hud-topic", pushAfter.String()))
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), posts...)
	}
}

// waylandPushAfter is push_after on a Wayland desktop: well beyond the
// shortest idle period the compositor reports to hud
// (wayland.DefaultTimeout), which it counts from the last input.
const waylandPushAfter = 20 * time.Second

// awayPushOnWayland plays the away push where the compositor tells the
// idle time, the tray running with pushes to got (listenForPushes, after
// waylandPushAfter) and s's terminal in front: while the person types
// there (typeKey, once a second) no push; once they stop, one, no sooner
// than push_after after the last key, and no second one; with Do Not
// Disturb on (dnd), none for the next wait.
func awayPushOnWayland(t *testing.T, item *sni.Item, s *terminalSession, got func() []string, typeKey, dnd func()) {
	t.Helper()
	name := filepath.Base(s.dir) // the menu names a session by its folder
	s.send(t, "PermissionRequest")
	waitRow(t, item, name+" — waiting")
	waited := time.Now()
	var left time.Time // the last input
	for time.Since(waited) < waylandPushAfter+5*time.Second {
		typeKey()
		left = time.Now()
		time.Sleep(time.Second)
	}
	if p := got(); len(p) != 0 {
		t.Fatalf("pushed while the person typed: %q", p)
	}
	deadline := left.Add(waylandPushAfter + 10*time.Second)
	for len(got()) == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if p := got(); len(p) != 1 {
		t.Fatalf("pushes after the person left: %q, want one", p)
	}
	gap := time.Since(left)
	if gap < waylandPushAfter {
		t.Errorf("pushed %v after the person left, before push_after", gap)
	}
	t.Logf("pushed %v after the last key", gap.Round(time.Millisecond))
	time.Sleep(3 * time.Second)
	if p := got(); len(p) != 1 {
		t.Errorf("the same wait pushed again: %q", p)
	}

	// Do Not Disturb, and a new wait while away: no push.
	dnd()
	s.send(t, "UserPromptSubmit")
	waitRow(t, item, name+" — working")
	s.send(t, "PermissionRequest")
	waitRow(t, item, name+" — waiting")
	time.Sleep(waylandPushAfter + 5*time.Second)
	if p := got(); len(p) != 1 {
		t.Errorf("pushed under do-not-disturb: %q", p)
	}
}
