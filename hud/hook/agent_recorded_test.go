package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentRecordings matches the payloads recorded from other agents' real
// CLIs (testdata/hook/<agent>-<release>/, each with its README): replayed
// in order through the agent's decoder and the one state machine, and
// checked against the directory's replay.txt like Claude's recordings.
var agentRecordings = map[string]*agent{
	"../../testdata/hook/gemini-*":  &geminiAgent,
	"../../testdata/hook/copilot-*": &copilotAgent,
}

func TestAgentRecordedReplay(t *testing.T) {
	n := 0
	for pattern, ag := range agentRecordings {
		dirs, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			n++
			t.Run(filepath.Base(dir), func(t *testing.T) { replayAgentRecording(t, ag, dir) })
		}
	}
	if n == 0 {
		t.Fatal("no agent recordings found")
	}
}

func replayAgentRecording(t *testing.T, ag *agent, dir string) {
	payloads, err := recordedPayloads(dir)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTable()
	now := t0
	var got []replayStep
	for _, name := range payloads {
		now = now.Add(time.Second)
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		// NNN-event[-detail].json: the event as the hook command names it.
		event, _, _ := strings.Cut(strings.TrimSuffix(name, ".json")[4:], "-")
		ev, err := ag.decode(event, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		state := "dropped"
		if ev != nil {
			ev.Agent = ag.name
			u := applyEvent(tb, ev, observation{Alive: func(int, int64) bool { return true }}, now)
			state = "none"
			if u.Dropped != "" {
				state = "dropped"
			} else if r, err := tb.get(ev.SessionID); err != nil {
				t.Fatalf("%s: %v", name, err)
			} else if r != nil {
				state = string(r.State)
				if r.Agent != ag.name {
					t.Errorf("%s: record's agent %q, want %q", name, r.Agent, ag.name)
				}
			}
		}
		got = append(got, replayStep{name, state})
	}
	checkReplay(t, filepath.Join(dir, replayFile), got, "TestAgentRecordedReplay")
}
