package hook

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

// testEnv is an Env for an in-process run with stdin and HOME given.
func testEnv(home, stdin string, stderr *bytes.Buffer) Env {
	return Env{
		Stdin:  strings.NewReader(stdin),
		Stdout: failWriter{},
		Stderr: stderr,
		Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		},
		Now:        func() time.Time { return t0 },
		Parent:     os.Getpid(),
		Executable: func() (string, error) { return "", errors.New("no helpers in tests") },
	}
}

// failWriter fails the test run by recording any write: the hook's stdout
// is the person's Claude context.
type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { panic("wrote to stdout: " + string(p)) }

// TestFollowUpsRunAfterTheStore: each follow-up sees the record as written;
// a failing or panicking one is logged and the next still runs; Block makes
// the run exit 2 with the reason on stderr.
func TestFollowUpsRunAfterTheStore(t *testing.T) {
	home := t.TempDir()
	var seen []string
	saved := followUps
	defer func() { followUps = saved }()
	followUps = []followUp{
		{"records", func(c *Context) error {
			if c.Before != nil || c.After == nil || c.After.State != resolver.StateWorking {
				t.Errorf("before %+v after %+v", c.Before, c.After)
			}
			b, _ := os.ReadFile(c.Layout.StorePath())
			if !bytes.Contains(b, []byte(`"state": "working"`)) {
				t.Error("the store was not written before the follow-ups")
			}
			seen = append(seen, "records")
			return nil
		}},
		{"fails", func(*Context) error { seen = append(seen, "fails"); return errors.New("it broke") }},
		{"panics", func(*Context) error { seen = append(seen, "panics"); panic("boom") }},
		{"blocks", func(c *Context) error { seen = append(seen, "blocks"); c.Block("work session over"); return nil }},
	}
	var stderr bytes.Buffer
	ev := `{"session_id":"s","hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"go"}`
	if code := Main(nil, testEnv(home, ev, &stderr)); code != 2 {
		t.Errorf("exit %d, want 2 (blocked)", code)
	}
	if stderr.String() != "work session over\n" {
		t.Errorf("stderr %q", stderr.String())
	}
	if strings.Join(seen, " ") != "records fails panics blocks" {
		t.Errorf("ran %v", seen)
	}
	log, _ := os.ReadFile(resolver.Layout{Home: home}.DebugLogPath())
	for _, want := range []string{" s error: fails: it broke\n", " s error: panics: panic: boom\n", " s UserPromptSubmit -→working ("} {
		if !bytes.Contains(log, []byte(want)) {
			t.Errorf("debug log lacks %q:\n%s", want, log)
		}
	}
}

// TestNoFollowUpsForDroppedEvents: an event the store ignored (a late
// event of an ended session) is not worth the follow-ups' time.
func TestNoFollowUpsForDroppedEvents(t *testing.T) {
	home := t.TempDir()
	saved := followUps
	defer func() { followUps = saved }()
	ran := 0
	followUps = []followUp{{"count", func(*Context) error { ran++; return nil }}}
	for _, ev := range []string{
		`{"session_id":"s","hook_event_name":"SessionEnd","cwd":"/p"}`,
		`{"session_id":"s","hook_event_name":"PostToolUse","cwd":"/p"}`,
	} {
		if code := Main(nil, testEnv(home, ev, &bytes.Buffer{})); code != 0 {
			t.Errorf("exit %d", code)
		}
	}
	if ran != 1 {
		t.Errorf("follow-ups ran %d times, want 1 (for the SessionEnd)", ran)
	}
}

func TestHelperModeDispatch(t *testing.T) {
	saved := helperModes
	defer func() { helperModes = saved }()
	var got []string
	helperModes = []helperMode{{"test-mode", func(args []string, _ Env) int { got = args; return 7 }}}
	if code := Main([]string{"test-mode", "a", "b"}, testEnv(t.TempDir(), "", &bytes.Buffer{})); code != 7 || strings.Join(got, " ") != "a b" {
		t.Errorf("exit %d, args %v", code, got)
	}
	// Anything else is a hook run, which reads stdin and exits 0.
	if code := Main([]string{"--unknown"}, testEnv(t.TempDir(), "", &bytes.Buffer{})); code != 0 {
		t.Errorf("exit %d", code)
	}
}
