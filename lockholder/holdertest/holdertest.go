// Package holdertest starts a real lock holder for a test: the test binary
// itself in the holder's mode, for a stand-in Claude process. The test
// binary's TestMain must run that mode (lockholder.HoldMode, with the job
// handler under test) when it is started with it.
package holdertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/lockholder"
)

// Start starts a stand-in Claude (sleep) and the test binary as the
// holder of that process's lock for path under l, and waits until the
// holder takes jobs. Both are killed when the test ends.
func Start(t testing.TB, l paths.Layout, path string) (dir string, claude proc.Process, holder *exec.Cmd) {
	t.Helper()
	sleep := exec.Command("sleep", "60")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	claude, err := proc.Inspect(sleep.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	dir = lockholder.Dir(l, path, claude.PID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(claude.PID)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	holder = exec.Command(os.Args[0], lockholder.HoldMode, dir, strconv.Itoa(claude.PID), strconv.FormatInt(claude.Started, 10))
	holder.Env = []string{"GORACE=atexit_sleep_ms=0"}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Process.Kill(); holder.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if socks, _ := filepath.Glob(filepath.Join(dir, "*.sock")); len(socks) == 1 {
			return dir, claude, holder
		}
		if time.Now().After(deadline) {
			t.Fatal("the holder never bound its job socket")
		}
	}
}
