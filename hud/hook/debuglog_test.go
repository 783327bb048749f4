package hook

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

func TestDebugLogLines(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	log := newDebugLog(l, Env{Now: func() time.Time { return t0 }, Stderr: os.Stderr})
	log.eventf("s1", "Stop %s→%s (%s)", "working", "ready", "0.50ms")
	log.errorf("", "panic: boom\nstack line 1\nstack line 2\n")
	log.flush()
	log.flush() // nothing twice
	b, err := os.ReadFile(l.DebugLogPath())
	if err != nil {
		t.Fatal(err)
	}
	want := "2026-01-21T10:30:00.000Z s1 Stop working→ready (0.50ms)\n" +
		"2026-01-21T10:30:00.000Z - error: panic: boom\n\tstack line 1\n\tstack line 2\n"
	if string(b) != want {
		t.Errorf("log:\n%s\nwant:\n%s", b, want)
	}
	if info, _ := os.Stat(l.DebugLogPath()); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", info.Mode())
	}
}

func TestDebugLogRotates(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	os.MkdirAll(l.ClaudeDir(), 0o700)
	old := bytes.Repeat([]byte("x"), maxDebugLog-10)
	os.WriteFile(l.DebugLogPath(), old, 0o600)
	log := newDebugLog(l, Env{Now: time.Now, Stderr: os.Stderr})
	log.eventf("s", "a line longer than ten bytes")
	log.flush()
	if b, _ := os.ReadFile(l.DebugLogPath() + ".1"); !bytes.Equal(b, old) {
		t.Errorf("old log not kept as .1 (%d bytes)", len(b))
	}
	if b, _ := os.ReadFile(l.DebugLogPath()); !strings.HasSuffix(string(b), " s a line longer than ten bytes\n") || len(b) > 100 {
		t.Errorf("new log %q", b)
	}
}

// TestDebugLogWithoutHome: the lines go to stderr rather than nowhere.
func TestDebugLogWithoutHome(t *testing.T) {
	var stderr bytes.Buffer
	log := newDebugLog(paths.Layout{}, Env{Now: func() time.Time { return t0 }, Stderr: &stderr})
	log.errorf("", "no home")
	log.flush()
	if stderr.String() != "2026-01-21T10:30:00.000Z - error: no home\n" {
		t.Errorf("stderr %q", stderr.String())
	}
}
