// Package agenttest holds what the agents' tests share: the logs recorded
// from the real CLIs (testdata/hook), read as they stood at a moment of
// the recording, and the homes and the hook their installs are tried on
// (install.go).
package agenttest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

// recorded is testdata/hook at the top of the repository, found from this
// file so that every package's tests name a recording the same way.
func recorded() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "hook")
}

// LogUpTo is the recorded log at path (below testdata/hook) cut after its
// line n (1-based): the file as it was at that moment.
func LogUpTo(t testing.TB, path string, n int) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(recorded(), path))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	return []byte(strings.Join(lines[:min(n, len(lines))], ""))
}

// Time parses an RFC 3339 time written in a test; it panics on a typo.
func Time(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// CheckTurnEnd holds what an agent's log reader found at a moment of a
// recording (end, ok) to what the test expects: no turn end unless found,
// else one at the time at, with an error that starts with wantErr ("" for
// none).
func CheckTurnEnd(t testing.TB, name string, end resolver.TurnEnd, ok, found bool, at, wantErr string) {
	t.Helper()
	if ok != found {
		t.Errorf("%s: found %v, want %v", name, ok, found)
		return
	}
	if !ok {
		return
	}
	if !end.At.Equal(Time(at)) || !strings.HasPrefix(end.Error, wantErr) || (wantErr == "") != (end.Error == "") {
		t.Errorf("%s: %v %q, want %s %q", name, end.At, end.Error, at, wantErr)
	}
}
