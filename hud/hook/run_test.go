package hook

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
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
		Sources:    testSources,
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
			if c.Before != nil || c.After == nil || c.After.State != store.StateWorking {
				t.Errorf("before %+v after %+v", c.Before, c.After)
			}
			b, _ := os.ReadFile(c.Layout.StorePath())
			if !bytes.Contains(b, []byte(`"state": "working"`)) {
				t.Error("the st was not written before the follow-ups")
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
	log, _ := os.ReadFile(paths.Layout{Home: home}.DebugLogPath())
	for _, want := range []string{" s error: fails: it broke\n", " s error: panics: panic: boom\n", " s UserPromptSubmit blocked, - kept ("} {
		if !bytes.Contains(log, []byte(want)) {
			t.Errorf("debug log lacks %q:\n%s", want, log)
		}
	}
}

// TestBlockedPromptLeavesTheRecord: a prompt a follow-up blocks never
// reaches Claude, so the session must not be left showing working with no
// Stop to come; a session the blocked prompt would have created is gone.
func TestBlockedPromptLeavesTheRecord(t *testing.T) {
	home := t.TempDir()
	saved := followUps
	defer func() { followUps = saved }()
	var stderr bytes.Buffer
	start := `{"session_id":"s","hook_event_name":"SessionStart","cwd":"/p","source":"startup"}`
	followUps = nil
	if code := Main(nil, testEnv(home, start, &stderr)); code != 0 {
		t.Fatalf("SessionStart: exit %d", code)
	}
	followUps = []followUp{{"blocks", func(c *Context) error { c.Block("timed out"); return nil }}}
	prompt := `{"session_id":"s","hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"go on"}`
	if code := Main(nil, testEnv(home, prompt, &stderr)); code != 2 {
		t.Fatalf("blocked prompt: exit %d", code)
	}
	b, _ := os.ReadFile(paths.Layout{Home: home}.StorePath())
	st, _, err := store.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if r := st.Sessions["s"]; r == nil || r.State != store.StateReady || r.WorkingOn != "" {
		t.Errorf("record after a blocked prompt: %+v", r)
	}
	log, _ := os.ReadFile(paths.Layout{Home: home}.DebugLogPath())
	if !bytes.Contains(log, []byte(" s UserPromptSubmit blocked, ready kept (")) || bytes.Contains(log, []byte("ready→working")) {
		t.Errorf("debug log after a blocked prompt:\n%s", log)
	}
	// A blocked prompt of an unknown session leaves no record behind.
	other := `{"session_id":"new","hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"hi"}`
	Main(nil, testEnv(home, other, &stderr))
	b, _ = os.ReadFile(paths.Layout{Home: home}.StorePath())
	if st, _, _ := store.Decode(b); st.Sessions["new"] != nil {
		t.Errorf("a blocked first prompt created %+v", st.Sessions["new"])
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
