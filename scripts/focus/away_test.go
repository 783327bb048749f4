package focus

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// awayAfter is [history] away_after in the test, and the absences it
// plays are in the same ratio as a person's: a long one (15 minutes beside
// the default 10) and a short one (2 minutes).
// awayTitle is the summary's title for an absence of awayLong, give or
// take the second the idle time is told to.
var awayTitle = regexp.MustCompile(`^While you were away \((8|9|10)s\)$`)

const (
	awayAfter = 6 * time.Second
	awayLong  = 9 * time.Second
	awayShort = 2 * time.Second
)

// The person's absences, the idle time read from the X server: away
// longer than away_after while one session finishes and another starts to
// wait, then a key: exactly one "while you were away" notification naming
// both; away shorter: none; away long again under Do Not Disturb (dunst
// paused): none, and `hud away` still tells the absence.
func TestAwaySummaryFromTheTray(t *testing.T) {
	r := startNotifying(t)
	writeFile(t, filepath.Join(r.home, ".config", "hud", "config.toml"),
		"[history]\naway_after = \""+awayAfter.String()+"\"\n[notifications]\npermission = false\n")
	if err := xtest.Init(r.d.conn); err != nil {
		t.Fatalf("the X server has no XTEST: %v", err)
	}
	key := func() {
		xtest.FakeInput(r.d.conn, xproto.KeyPress, 50, 0, r.d.root, 0, 0, 0) // Shift
		xtest.FakeInput(r.d.conn, xproto.KeyRelease, 50, 0, r.d.root, 0, 0, 0)
		r.d.conn.Sync()
	}
	alpha := newTerminalSession(t, r.home, "alpha", "f0c05e55-0000-4000-8000-0000000000a7")
	alpha.win = r.d.terminal(t, r.home, "claude-alpha", "sh", "-c", alpha.command(r.hook))
	beta := newTerminalSession(t, r.home, "beta", "f0c05e55-0000-4000-8000-0000000000b7")
	beta.win = r.d.terminal(t, r.home, "claude-beta", "sh", "-c", beta.command(r.hook))
	waitSession(t, r.hud, r.home, alpha.id)
	waitSession(t, r.hud, r.home, beta.id)
	key()
	item, _ := r.startTray(t)
	alpha.send(t, "UserPromptSubmit")
	beta.send(t, "UserPromptSubmit")
	waitRow(t, item, "alpha — working")
	waitRow(t, item, "beta — working")

	// Away: alpha finishes, beta asks; then a key.
	key()
	left := time.Now()
	time.Sleep(time.Second)
	alpha.send(t, "Stop")
	beta.send(t, "PermissionRequest")
	waitRow(t, item, "beta — waiting")
	time.Sleep(time.Until(left.Add(awayLong)))
	key()
	back := time.Now()
	for len(r.notes.summaries()) == 0 && time.Since(back) < 10*time.Second {
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("told %v after the key: %q", time.Since(back).Round(time.Millisecond), r.notes.summaries())
	// The absence is told as the X server counted it: from the last input
	// to the first, each as its idle time said when asked (to the second).
	if got := r.notes.summaries(); len(got) != 1 || !awayTitle.MatchString(got[0]) {
		t.Fatalf("notifications %q, want one \"While you were away (8s–10s)\"", got)
	}
	body := r.notes.body(0)
	t.Logf("its body: %s", body)
	for _, want := range []string{"beta: waits since " + left.Format("15:04"), "for Bash: npm test", "alpha: finished"} {
		if !strings.Contains(body, want) {
			t.Errorf("the summary %q does not say %q", body, want)
		}
	}

	// Away a short while: nothing.
	time.Sleep(awayShort)
	key()
	for range 4 {
		time.Sleep(time.Second)
		key()
	}

	// Do Not Disturb, away long: held back, but recorded.
	ctl := exec.Command("dunstctl", "set-paused", "true")
	ctl.Env = r.env
	if out, err := ctl.CombinedOutput(); err != nil {
		t.Fatalf("dunstctl set-paused: %v\n%s", err, out)
	}
	time.Sleep(awayLong)
	key()
	time.Sleep(4 * time.Second) // the summary would be out by now
	if got := r.notes.summaries(); len(got) != 1 {
		t.Errorf("notifications %q, want the first summary alone", got)
	}
	out := run(t, r.home, "", r.hud, "away")
	if !strings.Contains(out, "While you were away") || !strings.Contains(out, "beta: waits since") {
		t.Errorf("hud away said:\n%s", out)
	}
}
