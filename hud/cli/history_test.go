package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/internal/paths"
)

// ledgerHome is a home whose ledger holds entries, and a way to run hud
// in it at now.
type ledgerHome struct {
	t    *testing.T
	home string
	now  time.Time
	vars map[string]string
}

func newLedgerHome(t *testing.T, now time.Time, entries ...ledger.Entry) *ledgerHome {
	t.Helper()
	h := &ledgerHome{t: t, home: t.TempDir(), now: now, vars: map[string]string{}}
	if err := ledger.Append(paths.Layout{Home: h.home}.LedgerDir(), entries...); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *ledgerHome) run(args ...string) (code int, stdout, stderr string) {
	h.t.Helper()
	var out, errOut bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Home: h.home,
		Getenv: func(k string) string { return h.vars[k] }, Now: func() time.Time { return h.now }}
	code = Main(args, env)
	return code, out.String(), errOut.String()
}

// awayNow is a Sunday afternoon, in the local zone the ledger's files are
// named in.
var awayNow = time.Date(2026, 11, 22, 15, 0, 0, 0, time.Local)

func ago(d time.Duration) time.Time { return awayNow.Add(-d) }

func TestAway(t *testing.T) {
	api := ledger.Entry{Key: "s1", Project: "/p/api", Name: "auth refactor"}
	docs := ledger.Entry{Key: "s2", Project: "/p/docs"}
	at := func(e ledger.Entry, t time.Time, state string) ledger.Entry {
		e.T, e.State = t, state
		return e
	}
	waiting := at(api, ago(30*time.Minute), "waiting")
	waiting.For = "Bash: rm -rf build\x1b]0;pwned\x07"
	finished := at(docs, ago(45*time.Minute), "ready")
	finished.Commits = 3
	h := newLedgerHome(t, awayNow,
		at(api, ago(2*time.Hour), "working"),
		at(docs, ago(3*time.Hour), "working"),
		ledger.Entry{T: ago(3 * time.Hour), Away: ago(4 * time.Hour)}, // an older absence
		waiting, finished,
		ledger.Entry{T: ago(10 * time.Minute), Away: ago(50 * time.Minute)})

	code, out, errOut := h.run("away")
	want := "While you were away (40m)\n" +
		"  api · auth refactor: waits since " + ago(30*time.Minute).Format("15:04") + " (20m) for Bash: rm -rf build\n" +
		"  docs: finished · 3 commits\n"
	if code != 0 || out != want || errOut != "" {
		t.Errorf("hud away: %d\n%s\nwant\n%s\nstderr %q", code, out, want, errOut)
	}

	code, out, _ = h.run("away", "--json")
	var rep struct {
		From, To time.Time
		Lines    []string
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("hud away --json: %d %v\n%s", code, err, out)
	}
	if !rep.From.Equal(ago(50*time.Minute)) || !rep.To.Equal(ago(10*time.Minute)) || len(rep.Lines) != 2 || strings.Contains(rep.Lines[0], "\x1b") {
		t.Errorf("hud away --json: %s", out)
	}
}

// An absence with nothing to tell still says so; one older than a week is
// not the last absence any more.
func TestAwayQuiet(t *testing.T) {
	h := newLedgerHome(t, awayNow, ledger.Entry{T: ago(time.Hour), Away: ago(2 * time.Hour)})
	if code, out, _ := h.run("away"); code != 0 || out != "While you were away (1h)\n  nothing happened in your sessions meanwhile\n" {
		t.Errorf("hud away: %d %q", code, out)
	}
	h.now = awayNow.Add(8 * 24 * time.Hour)
	if code, out, _ := h.run("away"); code != 0 || !strings.HasPrefix(out, "No absence recorded in the last 7 days.") {
		t.Errorf("hud away a week later: %d %q", code, out)
	}
}

// hud history tells today by default; --project takes a relative path, as
// the person's shell has it.
func TestHistoryTodayAndProject(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	here, other := paths.Normalize(dir), paths.Normalize(t.TempDir())
	h := newLedgerHome(t, awayNow,
		ledger.Entry{T: ago(3 * time.Hour), Key: "s1", Project: here, State: "working"},
		ledger.Entry{T: ago(2 * time.Hour), Key: "s1", Project: here, State: "ready"},
		ledger.Entry{T: ago(90 * time.Minute), Key: "s2", Project: other + "/sub", Name: "other", State: "working"},
		ledger.Entry{T: ago(30 * time.Hour), Key: "s3", Project: here, State: "working"}, // yesterday
		ledger.Entry{T: ago(29 * time.Hour), Key: "s3", Project: here, State: "ended"},
	)
	h.vars["COLUMNS"] = "80"
	code, out, errOut := h.run("history")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "Today, 12:00–15:00\n") || strings.Contains(out, "session s3") {
		t.Errorf("hud history: %d %q\n%s", code, errOut, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > 80 {
			t.Errorf("a line wider than $COLUMNS: %q", line)
		}
	}
	code, out, _ = h.run("history", "--project", ".", "--json")
	var got struct {
		Total struct {
			Working float64 `json:"working_s"`
		}
		Sessions []struct{ Key string }
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("hud history --project .: %d %v\n%s", code, err, out)
	}
	if got.Total.Working != 3600 || len(got.Sessions) != 1 || got.Sessions[0].Key != "s1" {
		t.Errorf("hud history --project .: %s", out)
	}
}
