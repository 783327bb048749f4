package activity

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSpawnAtLowPriority: the worker runs at the background priority, and
// so does what it starts (git). The stand-in worker waits for the test's
// go-ahead, given once Spawn returned, then reports its niceness.
func TestSpawnAtLowPriority(t *testing.T) {
	home := t.TempDir()
	exe := filepath.Join(home, "worker")
	script := "#!/bin/sh\nwhile [ ! -e \"$HOME/go\" ]; do sleep 0.01; done\nnice > \"$HOME/nice.tmp\" && mv \"$HOME/nice.tmp\" \"$HOME/nice\"\n"
	if err := os.WriteFile(exe, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Spawn(exe, Job{Home: home, SessionID: "s", Kind: JobScan}, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(home, "nice"))
		if err == nil {
			if got, want := strings.TrimSpace(string(b)), strconv.Itoa(workerNice); got != want {
				t.Fatalf("the worker's niceness is %s, want %s", got, want)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the stand-in worker never reported")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
