package gemini

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/agenttest"
	"github.com/capacitor-hud/hud/resolver"
)

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
		{"gemini while working", chat{}.TurnEnd, agenttest.LogUpTo(t, "gemini-0.61.0/session-files/chat.jsonl", 20), false, "", ""},
		{"gemini denial", chat{}.TurnEnd, agenttest.LogUpTo(t, "gemini-0.61.0/session-files/chat-after-denial.jsonl", 1000), true, "2026-11-23T15:31:28.623Z", ""},
		{"gemini Esc", chat{}.TurnEnd, agenttest.LogUpTo(t, "gemini-0.61.0/session-files/chat.jsonl", 1000), true, "2026-11-23T15:31:48.931Z", ""},
	}
	for _, c := range cases {
		end, ok := c.last(c.tail, agenttest.Time(modified))
		agenttest.CheckTurnEnd(t, c.name, end, ok, c.found, c.at, c.error)
	}
}
