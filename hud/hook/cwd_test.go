package hook

import (
	"errors"
	"testing"

	"github.com/capacitor-hud/hud/lockholder"
)

func TestFallbackCWD(t *testing.T) {
	wd := func(dir string, err error) func() (string, error) { return func() (string, error) { return dir, err } }
	cases := []struct {
		name       string
		projectDir string
		getwd      func() (string, error)
		want       string
	}{
		{"CLAUDE_PROJECT_DIR first", "/home/dev/proj/", wd("/elsewhere", nil), "/home/dev/proj"},
		{"else the hook's own directory", "", wd("/home/dev/proj/sub", nil), "/home/dev/proj/sub"},
		{"a relative CLAUDE_PROJECT_DIR is no answer", "proj", wd("/home/dev/proj", nil), "/home/dev/proj"},
		{"no working directory", "", wd("", errors.New("deleted")), ""},
		{"no way to ask", "", nil, ""},
	}
	for _, c := range cases {
		env := Env{Getenv: func(k string) string {
			if k == "CLAUDE_PROJECT_DIR" {
				return c.projectDir
			}
			return ""
		}, Getwd: c.getwd}
		if got := fallbackCWD(env); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestEventWithoutCWD: an event without a cwd takes the fallback for a new
// record, keeps an existing record's, and with no fallback at all starts
// no record.
func TestEventWithoutCWD(t *testing.T) {
	obs := func(cwd string) observation {
		return observation{Claude: lockholder.Process{PID: 1, Started: 1}, CWD: cwd, Alive: func(int, int64) bool { return true }}
	}
	ev := &Event{SessionID: "s", HookEventName: EventUserPromptSubmit}

	tb := newTable()
	if u := applyEvent(tb, ev, obs(""), t0); u.Dropped == "" || tb.len() != 0 {
		t.Errorf("no cwd anywhere: dropped %q, %d records", u.Dropped, tb.len())
	}
	if u := applyEvent(tb, ev, obs("/home/dev/proj"), t0); u.After == nil || u.After.CWD != "/home/dev/proj" {
		t.Fatalf("fallback: %+v", u)
	}
	moved := &Event{SessionID: "s", HookEventName: EventPreToolUse, CWD: "/home/dev/proj/sub"}
	applyEvent(tb, moved, obs(""), t0)
	if u := applyEvent(tb, ev, obs("/home/dev/proj"), t0); u.After.CWD != "/home/dev/proj/sub" {
		t.Errorf("an event without a cwd moved the record's to %q", u.After.CWD)
	}
}
