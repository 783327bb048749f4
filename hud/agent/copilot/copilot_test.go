package copilot

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/agenttest"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// TestTurnEnd reads the recorded logs at the moments the hooks were
// silent (testdata/hook/copilot-<release>/README.md).
func TestTurnEnd(t *testing.T) {
	const recording = "copilot-1.0.102/session-files/events.jsonl"
	// modified is when the log was last written: a Copilot turn that ended
	// without a hook ends then.
	const modified = "2026-11-23T17:00:00Z"
	cases := []struct {
		name  string
		last  func([]byte, time.Time) (resolver.TurnEnd, bool)
		tail  []byte
		found bool
		at    string
		error string
	}{
		{"copilot a prompt's tool call", events{}.TurnEnd, agenttest.LogUpTo(t, recording, 55), false, "", ""},
		{"copilot denial", events{}.TurnEnd, agenttest.LogUpTo(t, recording, 57), true, modified, ""},
		{"copilot Esc Esc", events{}.TurnEnd, agenttest.LogUpTo(t, recording, 63), true, modified, ""},
		{"copilot model error", events{}.TurnEnd, agenttest.LogUpTo(t, recording, 93), true, modified, "400 the stand-in answers 400 as asked"},
		{"copilot the next prompt's hook runs", events{}.TurnEnd, agenttest.LogUpTo(t, recording, 94), false, "", ""},
		{"copilot a new turn after an end", events{}.TurnEnd, agenttest.LogUpTo(t, recording, 97), false, "", ""},
		{"copilot a turn ended by agentStop", events{}.TurnEnd, agenttest.LogUpTo(t, recording, 40), true, modified, ""},
		// Esc Esc before the first words: the log rewound past the prompt
		// whose hook fired at 16:04:47.043, its hook.start gone with it.
		{"copilot edit prompt", events{}.TurnEnd, agenttest.LogUpTo(t, "copilot-1.0.102/session-files/events-edit-prompt.jsonl", 1000), true, modified, ""},
		{"copilot a model call's end inside a turn", events{}.TurnEnd, agenttest.LogUpTo(t, recording, 34), false, "", ""},
		{"a cut first line and junk", events{}.TurnEnd, []byte(`e":"abort"}` + "\nnot json\n" + `{"type":"abort","timestamp":"2026-11-23T15:00:00Z"`), false, "", ""},
	}
	for _, c := range cases {
		end, ok := c.last(c.tail, agenttest.Time(modified))
		agenttest.CheckTurnEnd(t, c.name, end, ok, c.found, c.at, c.error)
	}
}

func TestPath(t *testing.T) {
	const id = "06fc3013-484c-4fe7-b048-5ed1ec7fdadc"
	l := paths.Layout{Home: "/home/u"}
	def := "/home/u/.copilot/session-state/" + id + "/events.jsonl"
	cases := []struct{ transcript, want string }{
		{"", def},
		{"/srv/copilot/session-state/" + id + "/events.jsonl", "/srv/copilot/session-state/" + id + "/events.jsonl"},
		{"/srv/copilot/session-state/other/events.jsonl", def},
		{"/etc/passwd", def},
		{"/srv/x/../copilot/session-state/" + id + "/events.jsonl", def},
		{"relative/session-state/" + id + "/events.jsonl", def},
	}
	for _, c := range cases {
		if got, _ := (events{}).Path(l, &store.Record{SessionID: id, TranscriptPath: c.transcript}); got != c.want {
			t.Errorf("transcript %q: %s, want %s", c.transcript, got, c.want)
		}
	}
}
