package activity

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/lockholder"
)

// TestMain doubles as the worker for TestWorkerWatchdog: with
// ACTIVITY_TEST_WORKER_HOME set, the test binary runs one scan job with a
// short watchdog and prints what it logged. Started in hold mode it is
// the lock holder, taking jobs as the hook binary's does (holder.log in
// the job's home is its debug log).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == lockholder.HoldMode {
		os.Exit(lockholder.HoldMain(os.Args[2:], HolderJobs(fileLog), nil))
	}
	if home := os.Getenv("ACTIVITY_TEST_WORKER_HOME"); home != "" {
		workerTimeout = 300 * time.Millisecond
		code := WorkerMain([]string{"--home", home, "--session", "s1", "--job", JobScan}, time.Now,
			func(_, _ string) (func(string, ...any), func()) {
				return func(f string, a ...any) { fmt.Printf(f+"\n", a...) }, func() {}
			})
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// TestWorkerWatchdog: a worker stuck on something (here the session's
// worker lock, held by another process) ends itself at its watchdog,
// saying so in the log, instead of living on.
func TestWorkerWatchdog(t *testing.T) {
	home := t.TempDir()
	path, _ := Path(paths.Layout{Home: home}, "s1")
	unlock, err := safefile.Lock(path+".worker", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "ACTIVITY_TEST_WORKER_HOME="+home)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start)
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("worker: %v, want exit 1 from the watchdog", err)
	}
	if took > 10*time.Second {
		t.Errorf("the watchdog took %v", took)
	}
	if !strings.Contains(out.String(), "gave up after 300ms") {
		t.Errorf("worker logged %q", out.String())
	}
}
