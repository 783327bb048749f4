package hook

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
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
		return observation{Process: proc.Process{PID: 1, Started: 1}, CWD: cwd, Alive: func(int, int64) bool { return true }}
	}
	ev := &Event{SessionID: "s", HookEventName: EventUserPromptSubmit}

	tb := store.NewTable()
	if u := applyEvent(tb, ev, obs(""), t0); u.Dropped == "" || tb.Len() != 0 {
		t.Errorf("no cwd anywhere: dropped %q, %d records", u.Dropped, tb.Len())
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

// TestObserveProjectDir: the project is CLAUDE_PROJECT_DIR normalized, or
// the nearest .git above the cwd, whether or not the two spell the cwd the
// same way (the hook skips normalizing it twice when they do).
func TestObserveProjectDir(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	sub := filepath.Join(real, "sub")
	if err := os.MkdirAll(filepath.Join(real, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	realRoot := paths.Normalize(real)
	for _, c := range []struct{ name, cwd, projectDir, want string }{
		{"the cwd itself, through a link", link + "/sub/", link + "/sub/", paths.Normalize(sub)},
		{"another spelling of the cwd", link + "/sub", real + "/sub", paths.Normalize(sub)},
		{"above the cwd", link + "/sub", link, realRoot},
		{"not set: the .git above", link + "/sub", "", realRoot},
	} {
		ev := &Event{SessionID: "s", HookEventName: EventPreToolUse, CWD: c.cwd}
		env := Env{Getenv: func(k string) string {
			if k == "CLAUDE_PROJECT_DIR" {
				return c.projectDir
			}
			return ""
		}, Parent: os.Getpid(), Now: time.Now, Stderr: io.Discard}
		log := newDebugLog(paths.Layout{}, env)
		if got := observe(ev, env, paths.Layout{Home: root}, &ClaudeCode, log).ProjectDir; got != c.want {
			t.Errorf("%s: project %q, want %q", c.name, got, c.want)
		}
	}
}
