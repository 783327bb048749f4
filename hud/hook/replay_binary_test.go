package hook_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/resolver"
)

// TestRecordedReplayBinary replays every recording through the hook
// binary, as Claude Code runs it: each run prints nothing, and the store
// then holds the event's session in the state replay.txt names ("none"
// also for an event the hook dropped). TestRecordedReplay checks the same
// in process, with the Claude process of each moment.
func TestRecordedReplayBinary(t *testing.T) {
	bin, err := exec.LookPath("hud-hook")
	if err != nil {
		t.Fatal(err)
	}
	for name, dir := range hook.RecordingDirs(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			want := hook.ReplayExpectations(t, dir)
			payloads, err := hook.RecordedPayloads(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(payloads) != len(want) {
				t.Fatalf("%d payloads, %d lines in replay.txt", len(payloads), len(want))
			}
			for i, p := range payloads {
				payload, err := os.ReadFile(filepath.Join(dir, p))
				if err != nil {
					t.Fatal(err)
				}
				var stdout, stderr bytes.Buffer
				cmd := exec.Command(bin)
				cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
				cmd.Stdin = bytes.NewReader(payload)
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil || stdout.Len() > 0 {
					t.Fatalf("%s: %v, stdout %q, stderr %q", p, err, stdout.Bytes(), stderr.Bytes())
				}
				ev, err := hook.DecodeEvent(payload)
				if err != nil {
					t.Fatal(err)
				}
				got := "none"
				if b, err := os.ReadFile(resolver.Layout{Home: home}.StorePath()); err == nil {
					s, err := resolver.DecodeStore(b)
					if err != nil {
						t.Fatalf("%s: the store does not decode: %v", p, err)
					}
					if r := s.Sessions[ev.SessionID]; r != nil {
						got = string(r.State)
					}
				}
				wantState := want[i][1]
				if wantState == "dropped" {
					wantState = "none"
				}
				if want[i][0] != p || got != wantState {
					t.Errorf("%s: %s, want %s (replay.txt: %s %s)", p, got, wantState, want[i][0], want[i][1])
				}
			}
		})
	}
}
