package e2e

import (
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
)

// needChromium returns the browser TestPage drives (Debian's chromium,
// headless). Without one a person's run skips, saying what to install;
// under CI (CI=true) that is a failure, since .ci/run installs it.
func needChromium(t *testing.T, s *suite) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	const why = "chromium is not installed (apt-get install --no-install-recommends chromium): the page is tested in a headless browser"
	if os.Getenv("CI") == "true" {
		t.Fatal(why + "; CI must provide it")
	}
	s.skipped.Store(t.Name(), why)
	t.Skip(why)
	return ""
}

// configPath is the rig's hud settings file, where hud itself looks for
// it in the rig's environment (XDG_CONFIG_HOME when baseEnv sets one).
func (r *rig) configPath() string {
	getenv := func(key string) string {
		for _, kv := range r.baseEnv() {
			if k, v, ok := strings.Cut(kv, "="); ok && k == key {
				return v
			}
		}
		return ""
	}
	return config.DefaultPath(r.home, getenv)
}

// startPageTray starts the tray (startTray: answering on, a private bus)
// serving the page on a free loopback port, and returns the page's
// address and a pairing link for it, from `hud serve --pair`. `hud
// answer on` writes the settings file first (the whole template); [serve]
// is then set in it line by line, every other line kept, and the tray's
// own `hud answer on` touches only [answer].
func (r *rig) startPageTray() (base, link string) {
	r.t.Helper()
	if out, err := r.hud("answer", "on"); err != nil {
		r.t.Fatalf("hud answer on: %v\n%s", err, out)
	}
	addr := "127.0.0.1:" + strconv.Itoa(freePort(r.t))
	path := r.configPath()
	setTOML(r.t, path, "serve", map[string]string{"enabled": "true", "listen": strconv.Quote(addr)})
	r.startTray()
	base = "http://" + addr
	if link = r.pairLink(); !strings.HasPrefix(link, base+"/pair#") {
		r.t.Fatalf("the tray serves the page at another address than %s in %s: hud serve --pair printed %s", addr, path, link)
	}
	return base, link
}

// freePort is a loopback TCP port nobody listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// setTOML sets keys of table in the TOML file at path to values (TOML
// literals): each key's line is replaced where it is, added under the
// table's header, or the table is added at the end.
func setTOML(t *testing.T, path, table string, values map[string]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	header, end := -1, len(lines)
	for i, l := range lines {
		s := strings.TrimSpace(l)
		if !strings.HasPrefix(s, "[") {
			continue
		}
		if header >= 0 {
			end = i
			break
		}
		if strings.TrimSpace(strings.Trim(s, "[]")) == table {
			header = i
		}
	}
	if header < 0 {
		lines = append(lines, "", "["+table+"]")
		header, end = len(lines)-1, len(lines)
	}
	set := map[string]bool{}
	for i := header + 1; i < end; i++ {
		k, _, _ := strings.Cut(lines[i], "=")
		k = strings.TrimSpace(k)
		if v, want := values[k]; want {
			lines[i], set[k] = k+" = "+v, true
		}
	}
	var added []string
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if !set[k] {
			added = append(added, k+" = "+values[k])
		}
	}
	lines = append(lines[:header+1], append(added, lines[header+1:]...)...)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

var pairURL = regexp.MustCompile(`https?://\S+/pair#\S+`)

// pairLink runs `hud serve --pair` as the person does, in the rig's
// environment, and returns the one-time link it prints; it waits for the
// tray to have written where it serves the page.
func (r *rig) pairLink() string {
	r.t.Helper()
	var out string
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		out, err = r.hud("serve", "--pair")
		if link := pairURL.FindString(out); err == nil && link != "" {
			return link
		}
	}
	r.t.Fatalf("hud serve --pair printed no pairing link within 10 s: %v\n%s", err, out)
	return ""
}

// pageShotPath is where TestPage saves the phone's picture for a release.
func pageShotPath(version string) string {
	return filepath.Join("..", "..", "testdata", "out", "page-"+version+".png")
}

// savePageShot saves png as this release's picture of the page under
// testdata/out and, with UPDATE_SCREENSHOT=1 on the newest tested
// release, as docs/web-phone.png (the picture in docs/web.md).
func (r *rig) savePageShot(png []byte) {
	r.t.Helper()
	path := pageShotPath(r.s.version)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		r.t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	r.t.Logf("the page on a phone (390×844, 3×): %s", abs)
	if os.Getenv("UPDATE_SCREENSHOT") != "1" {
		return
	}
	named, err := clientVersions()
	if err != nil {
		r.t.Fatal(err)
	}
	if r.s.version != named["newest"] {
		r.t.Logf("UPDATE_SCREENSHOT=1: docs/web-phone.png is taken on the newest tested release (%s), not %s", named["newest"], r.s.version)
		return
	}
	doc := filepath.Join("..", "..", "docs", "web-phone.png")
	if err := os.WriteFile(doc, png, 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.t.Logf("UPDATE_SCREENSHOT=1: wrote %s", doc)
}

// fileText is the text of a file under the rig's root, and whether it exists.
func (r *rig) fileText(rel string) (string, bool) {
	b, err := os.ReadFile(r.dir(rel))
	return string(b), err == nil
}

// goesOn waits for Claude to take an answer given elsewhere than in the
// terminal: its dialog gone from the screen and its own session file no
// longer "waiting" (releases that write it). It returns that moment, from
// which the HUD's "working" is measured, as a turn's end is from Claude's
// "idle": a CLI slowed down by a loaded machine is not counted against
// the HUD.
func (c *claudeProc) goesOn(timeout time.Duration) time.Time {
	c.r.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		cs, err := c.claudeState()
		screen := c.pane.capture()
		if err == nil && cs.Status != "waiting" && dialogGone(screen) {
			return time.Now()
		}
		if time.Now().After(deadline) {
			c.r.t.Fatalf("%s: Claude did not take the answer within %v: its session file says %q (%v); screen:\n%s",
				c.name, timeout, cs.Status, err, lastLines(screen, 25))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// notWaiting: the session is listed, working or ready (a dialog answered,
// Claude goes on).
func notWaiting(sessionID string) want {
	return want{
		id:   sessionID,
		desc: "working or ready",
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			return ok && (s.State == "working" || s.State == "ready")
		},
	}
}

// record adds a page step to the latency table and logs it, as expect
// does for `hud status`.
func (r *rig) record(step, wantDesc, fromWhat string, wait, limit time.Duration, ok bool) {
	r.t.Helper()
	r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: wantDesc, from: fromWhat, wait: wait, limit: limit, ok: ok})
	r.t.Logf("%-40s %-45s %6.0f ms", step, wantDesc, float64(wait)/float64(time.Millisecond))
	if !ok {
		r.t.Errorf("\n=== FAILED STEP: %s\nexpected (within %v of %s): %s\nseen: not after %v", step, limit, fromWhat, wantDesc, wait.Round(time.Millisecond))
	}
}

// TestSetTOML: setTOML keeps every other line, replaces a key in its
// table (not another table's), adds a missing one under the table's
// header, and a missing table at the end.
func TestSetTOML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	const before = "# settings\n[answer]\nenabled = true\n\n[serve]\n# the page\nenabled = false\nurl = \"\"\n[other]\nlisten = 1\n"
	if err := os.WriteFile(path, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	setTOML(t, path, "serve", map[string]string{"enabled": "true", "listen": `"127.0.0.1:1"`})
	setTOML(t, path, "new", map[string]string{"key": "1"})
	got, _ := os.ReadFile(path)
	const want = "# settings\n[answer]\nenabled = true\n\n[serve]\nlisten = \"127.0.0.1:1\"\n# the page\nenabled = true\nurl = \"\"\n[other]\nlisten = 1\n\n[new]\nkey = 1\n"
	if string(got) != want {
		t.Errorf("setTOML wrote\n%s\nwant\n%s", got, want)
	}
}
