package activity

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/lockholder/holdertest"
)

// fileLog is the test holder's debug log: holder.log in the job's home.
func fileLog(home, _ string) (func(string, ...any), func()) {
	return func(format string, a ...any) {
		f, err := os.OpenFile(filepath.Join(home, "holder.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintf(f, format+"\n", a...)
			f.Close()
		}
	}, func() {}
}

// reportingWorker writes a stand-in worker into home that reports its
// parent, pid, arguments and environment in home/out, then waits for the
// test's go-ahead (home/go.<pid>; 10 s at most) and says it is done
// (home/done.<pid>) as it exits.
func reportingWorker(t *testing.T, home string) string {
	t.Helper()
	exe := filepath.Join(home, "worker")
	script := "#!/bin/sh\nenv > \"$HOME/env\"\necho \"$PPID $$ $*\" > \"$HOME/out.tmp\" && mv \"$HOME/out.tmp\" \"$HOME/out\"\n" +
		"i=0; while [ ! -e \"$HOME/go.$$\" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done\n" +
		": > \"$HOME/done.$$\"\n"
	if err := os.WriteFile(exe, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return exe
}

// report waits for the stand-in worker's report, checks that it runs at
// the background priority (set just after its exec), and lets it finish.
func report(t *testing.T, home string) (ppid, pid int, args string) {
	t.Helper()
	out := filepath.Join(home, "out")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(out)
		if err == nil {
			os.Remove(out)
			f := strings.SplitN(strings.TrimSpace(string(b)), " ", 3)
			if len(f) != 3 {
				t.Fatalf("worker reported %q", b)
			}
			ppid, _ = strconv.Atoi(f[0])
			pid, _ = strconv.Atoi(f[1])
			args = f[2]
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the worker never reported")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for nice := ""; nice != strconv.Itoa(workerNice); {
		b, err := exec.Command("ps", "-o", "ni=", "-p", strconv.Itoa(pid)).Output()
		if nice = strings.TrimSpace(string(b)); err != nil || time.Now().After(deadline) {
			t.Errorf("worker's niceness %q (%v), want %d", nice, err, workerNice)
			break
		}
		time.Sleep(time.Millisecond)
	}
	if err := os.WriteFile(filepath.Join(home, "go."+strconv.Itoa(pid)), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// Not a worker left looping once the test's home is gone.
	for _, err := os.Stat(filepath.Join(home, "done."+strconv.Itoa(pid))); err != nil; _, err = os.Stat(filepath.Join(home, "done."+strconv.Itoa(pid))) {
		if time.Now().After(deadline) {
			t.Fatal("the worker never finished")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return ppid, pid, args
}

// startHolder starts the test binary as the lock holder of a lock for a
// stand-in Claude and waits until it takes jobs.
func startHolder(t *testing.T, home string) (dir string, holder *exec.Cmd) {
	dir, _, holder = holdertest.Start(t, paths.Layout{Home: home}, "/p")
	return dir, holder
}

// TestSpawnHandsJobToHolder: with a holder that takes jobs, the worker is
// the holder's child, started as the hook would start it (same arguments,
// environment and priority), and reaped by it when it ends. Without one
// (killed with kill -9, leaving its socket; none at all) the hook starts
// the worker itself, and says nothing of it in the log.
func TestSpawnHandsJobToHolder(t *testing.T) {
	home := t.TempDir()
	exe := reportingWorker(t, home)
	dir, holder := startHolder(t, home)
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	job := Job{Home: home, SessionID: "s1", Kind: JobCheckpoint, Reason: ReasonStop}

	if err := Spawn(exe, job, dir, logf); err != nil {
		t.Fatal(err)
	}
	ppid, pid, args := report(t, home)
	if ppid != holder.Process.Pid {
		t.Errorf("worker's parent %d, want the holder %d", ppid, holder.Process.Pid)
	}
	if want := strings.Join(job.Args(), " "); args != want {
		t.Errorf("worker's arguments %q, want %q", args, want)
	}
	env, _ := os.ReadFile(filepath.Join(home, "env"))
	for _, want := range []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=/xdg"} {
		if !strings.Contains(string(env), want+"\n") {
			t.Errorf("worker's environment lacks %s:\n%s", want, env)
		}
	}
	if strings.Contains(string(env), "GORACE") {
		t.Errorf("worker got the holder's environment:\n%s", env)
	}
	if runtime.GOOS == "linux" {
		// A zombie keeps its /proc entry until its parent reaps it.
		proc := "/proc/" + strconv.Itoa(pid)
		deadline := time.Now().Add(5 * time.Second)
		for _, err := os.Stat(proc); err == nil; _, err = os.Stat(proc) {
			if time.Now().After(deadline) {
				b, _ := os.ReadFile(proc + "/stat")
				t.Fatalf("the worker was never reaped: %s", b)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	for _, lockDir := range []string{dir, filepath.Join(home, "no.lock"), ""} {
		if err := Spawn(exe, job, lockDir, logf); err != nil {
			t.Fatal(err)
		}
		if ppid, _, _ := report(t, home); ppid != os.Getpid() {
			t.Errorf("lock dir %q: worker's parent %d, want the hook (%d)", lockDir, ppid, os.Getpid())
		}
	}
	if len(logged) != 0 {
		t.Errorf("expected fallbacks logged: %q", logged)
	}

	// A launch that cannot be handed over is started here, and said.
	t.Setenv("XDG_CONFIG_HOME", "/x\ny")
	if err := Spawn(exe, job, dir, logf); err != nil {
		t.Fatal(err)
	}
	if ppid, _, _ := report(t, home); ppid != os.Getpid() {
		t.Errorf("worker's parent %d, want the hook (%d)", ppid, os.Getpid())
	}
	if len(logged) != 1 || !strings.Contains(logged[0], "starting it here") {
		t.Errorf("logged %q, want the failed hand-over", logged)
	}
}

// TestHolderLogsFailedStart: a job whose executable cannot run is told in
// the debug log of the job's home; the holder goes on taking jobs.
func TestHolderLogsFailedStart(t *testing.T) {
	home := t.TempDir()
	exe := reportingWorker(t, home)
	dir, holder := startHolder(t, home)
	job := Job{Home: home, SessionID: "s1", Kind: JobScan}
	if err := Spawn(filepath.Join(home, "missing"), job, dir, t.Errorf); err != nil {
		t.Fatal(err)
	}
	if err := Spawn(exe, job, dir, t.Errorf); err != nil {
		t.Fatal(err)
	}
	if ppid, _, _ := report(t, home); ppid != holder.Process.Pid {
		t.Errorf("worker's parent %d, want the holder %d", ppid, holder.Process.Pid)
	}
	b, _ := os.ReadFile(filepath.Join(home, "holder.log"))
	if !strings.Contains(string(b), "lock holder: starting activity worker") || !strings.Contains(string(b), "missing") {
		t.Errorf("holder.log = %q, want the failed start", b)
	}
}
