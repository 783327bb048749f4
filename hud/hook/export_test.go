package hook

import "testing"

// For the black-box test (package hook_test) that replays the recordings
// through Main.
var (
	RecordingDirs    = recordingDirs
	RecordedPayloads = recordedPayloads
)

// ReplayExpectations reads a recording's replay.txt as payload → state.
func ReplayExpectations(t *testing.T, dir string) [][2]string {
	t.Helper()
	steps, err := readReplay(dir + "/" + replayFile)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][2]string, len(steps))
	for i, s := range steps {
		out[i] = [2]string{s.payload, s.state}
	}
	return out
}

// For the black-box tests (package hook_test) that run the registry's
// agents through Main and the one state machine.
var (
	TestEnv         = testEnv
	ReplayRecording = replayRecording
)
