package hook

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAgentRecordedReplay replays every recording of another agent's real
// CLI (scripts/agents with HUD_AGENTS_RECORD, filed as
// testdata/hook/<agent>-<release>/<scenario>/) through that agent's
// decoder, against its replay.txt, as TestRecordedReplay does Claude
// Code's. A new directory needs no change here.
func TestAgentRecordedReplay(t *testing.T) {
	found := 0
	for _, a := range codingAgents {
		dirs, err := filepath.Glob("../../testdata/hook/" + a.name + "-*/*")
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				continue
			}
			found++
			name, _ := filepath.Rel("../../testdata/hook", dir)
			t.Run(filepath.ToSlash(name), func(t *testing.T) { replayRecording(t, dir, a) })
		}
	}
	if found == 0 {
		t.Fatal("no agent recordings in testdata/hook")
	}
}
