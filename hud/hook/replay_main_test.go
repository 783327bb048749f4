package hook_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// TestRecordedReplayMain replays every recording through hook.Main, the
// binary's whole run (decoding, the store file and its lock, the
// follow-ups) but for the process: each run exits 0 and prints nothing,
// and the store then holds the event's session in the state replay.txt
// names ("none" also for an event the hook dropped). TestRecordedReplay
// checks the same on the state machine, with the Claude process of each
// moment; testdata/hook/fixtures.txtar runs the binary itself. (Running
// the race-built test binary once per payload takes about a second each.)
func TestRecordedReplayMain(t *testing.T) {
	t0 := time.Date(2026, 1, 21, 10, 30, 0, 0, time.UTC)
	for name, dir := range hook.RecordingDirs(t) {
		t.Run(name, func(t *testing.T) {
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
				env := hook.Env{
					Stdin:  bytes.NewReader(payload),
					Stdout: &stdout,
					Stderr: &stderr,
					Getenv: func(k string) string {
						if k == "HOME" {
							return home
						}
						return ""
					},
					Now: func() time.Time { return t0.Add(time.Duration(i) * time.Second) },
					// No Claude process to find, no helper to start.
					Parent:     -1,
					Executable: func() (string, error) { return "", errors.New("no helpers in tests") },
				}
				if code := hook.Main(nil, env); code != 0 || stdout.Len() > 0 {
					t.Fatalf("%s: exit %d, stdout %q, stderr %q", p, code, stdout.Bytes(), stderr.Bytes())
				}
				ev, err := hook.DecodeEvent(payload)
				if err != nil {
					t.Fatal(err)
				}
				got := "none"
				if b, err := os.ReadFile(paths.Layout{Home: home}.StorePath()); err == nil {
					s, problems, err := store.Decode(b)
					if err != nil || len(problems) > 0 {
						t.Fatalf("%s: the st does not decode cleanly: %v %v", p, err, problems)
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
