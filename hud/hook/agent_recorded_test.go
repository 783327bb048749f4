package hook

import (
	"path/filepath"
	"strings"
	"testing"
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
	replayWith(t, dir, "TestAgentRecordedReplay", func(name string, b []byte) (*Event, observation, error) {
		// NNN-event[-detail].json: the event as the hook command names it.
		event, _, _ := strings.Cut(strings.TrimSuffix(name, ".json")[4:], "-")
		ev, err := ag.decode(event, b)
		if ev != nil {
			ev.Agent = ag.name
		}
		return ev, observation{Alive: func(int, int64) bool { return true }}, err
	})
}
