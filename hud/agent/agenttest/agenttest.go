// Package agenttest holds what the agents' tests share: the logs recorded
// from the real CLIs (testdata/hook), read as they stood at a moment of
// the recording.
package agenttest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
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
