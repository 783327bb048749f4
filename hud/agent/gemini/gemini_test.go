package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

const recordedLogs = "../../../testdata/hook"

// logUpTo is a recorded log cut after its line n (1-based): the file as
// it was at that moment.
func logUpTo(t *testing.T, path string, n int) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(recordedLogs, path))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	return []byte(strings.Join(lines[:min(n, len(lines))], ""))
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestTurnEnd reads the recorded logs at the moments the hooks were
// silent (testdata/hook/gemini-<release>/README.md).
func TestTurnEnd(t *testing.T) {
	// modified is when the log was last written (Gemini's own time wins).
	const modified = "2026-11-23T17:00:00Z"
	cases := []struct {
		name  string
		last  func([]byte, time.Time) (resolver.TurnEnd, bool)
		tail  []byte
		found bool
		at    string
		error string
	}{
		{"gemini while working", chat{}.TurnEnd, logUpTo(t, "gemini-0.61.0/session-files/chat.jsonl", 20), false, "", ""},
		{"gemini denial", chat{}.TurnEnd, logUpTo(t, "gemini-0.61.0/session-files/chat-after-denial.jsonl", 1000), true, "2026-11-23T15:31:28.623Z", ""},
		{"gemini Esc", chat{}.TurnEnd, logUpTo(t, "gemini-0.61.0/session-files/chat.jsonl", 1000), true, "2026-11-23T15:31:48.931Z", ""},
	}
	for _, c := range cases {
		end, ok := c.last(c.tail, ts(modified))
		if ok != c.found {
			t.Errorf("%s: found %v, want %v", c.name, ok, c.found)
			continue
		}
		if !ok {
			continue
		}
		if !end.At.Equal(ts(c.at)) || !strings.HasPrefix(end.Error, c.error) || (c.error == "") != (end.Error == "") {
			t.Errorf("%s: %v %q, want %s %q", c.name, end.At, end.Error, c.at, c.error)
		}
	}
}
