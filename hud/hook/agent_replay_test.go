package hook

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAgentRecordedReplay replays every recording of another agent's real
// CLI (scripts/agents with HUD_AGENTS_RECORD, filed under
// testdata/hook/<agent>-<release>/, with its README) through that agent's
// decoder and the one state machine, against its replay.txt, as
// TestRecordedReplay does Claude Code's. A recording is a directory of
// NN-Event.json payloads: the release's directory itself, or one
// directory per scenario in it. A new one needs no change here.
func TestAgentRecordedReplay(t *testing.T) {
	found := 0
	for _, a := range codingAgents {
		releases, err := filepath.Glob("../../testdata/hook/" + a.name + "-*")
		if err != nil {
			t.Fatal(err)
		}
		for _, release := range releases {
			scenarios, _ := filepath.Glob(filepath.Join(release, "*"))
			for _, dir := range append([]string{release}, scenarios...) {
				if !holdsPayloads(dir) {
					continue
				}
				found++
				name, _ := filepath.Rel("../../testdata/hook", dir)
				t.Run(filepath.ToSlash(name), func(t *testing.T) { replayRecording(t, dir, a) })
			}
		}
	}
	if found == 0 {
		t.Fatal("no agent recordings in testdata/hook")
	}
}

// holdsPayloads reports whether dir is a directory of recorded payloads.
func holdsPayloads(dir string) bool {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return false
	}
	_, err := recordedPayloads(dir)
	return err == nil
}
