package lockholder

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
)

// The test binary plays three parts besides running the tests, chosen in
// TestMain: the lock holder (argv[1] == HoldMode, exactly as Ensure starts
// it), a stand-in Claude process, and a stand-in hook that the stand-in
// Claude runs through /bin/sh -c the way Claude Code does.
const (
	roleEnv    = "HUD_LOCKHOLDER_TEST_ROLE"
	sessionEnv = "HUD_LOCKHOLDER_TEST_SESSION"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HoldMode {
		os.Exit(HoldMain(os.Args[2:], testJob, nil))
	}
	switch os.Getenv(roleEnv) {
	case "claude":
		os.Exit(standInClaude())
	case "hook":
		os.Exit(standInHook())
	}
	os.Exit(m.Run())
}

// testJob is the holder's job handler in these tests: a job names a file,
// which the holder writes its pid to, so that a test sees which process
// ran the job.
func testJob(job []byte) {
	path := string(job)
	if !filepath.IsAbs(path) {
		return
	}
	if os.WriteFile(path+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o600) == nil {
		os.Rename(path+".tmp", path)
	}
}

// standInClaude fires hook events as asked on stdin: a line "N SID" runs N
// hooks at once, each `/bin/sh -c <test binary>` with its stdout and stderr
// on pipes the stand-in reads to the end, as Claude Code does (so a holder
// that kept a pipe would hang it). It also leaks two descriptors without
// close-on-exec to every hook, as a careless parent might. It answers
// "ok" or "fail: ..." on stdout once all N hooks have finished.
func standInClaude() int {
	leakR, leakW, err := os.Pipe()
	if err != nil {
		fmt.Println("fail:", err)
		return 1
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Println("fail:", err)
		return 1
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		req := strings.Fields(in.Text())
		if len(req) != 2 {
			fmt.Println("fail: bad request", in.Text())
			continue
		}
		n, err := strconv.Atoi(req[0])
		if err != nil {
			fmt.Println("fail: bad request", in.Text())
			continue
		}
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				// "; exit" keeps the shell between us and the hook.
				cmd := exec.Command("/bin/sh", "-c", "'"+exe+"'; exit $?")
				cmd.Env = append(os.Environ(), roleEnv+"=hook", sessionEnv+"="+req[1])
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				cmd.ExtraFiles = []*os.File{leakR, leakW}
				if err := cmd.Run(); err != nil {
					errs[i] = fmt.Errorf("hook: %v: %s", err, out.Bytes())
				}
			})
		}
		wg.Wait()
		if err := errorsJoin(errs); err != nil {
			fmt.Println("fail:", strings.ReplaceAll(err.Error(), "\n", " | "))
		} else {
			fmt.Println("ok")
		}
	}
	return 0
}

func errorsJoin(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// standInHook does what hud-hook does for the lock: find Claude above it,
// then Ensure, with itself as the holder binary.
func standInHook() int {
	// The stand-in Claude is this test binary: any process that is not a
	// shell counts.
	claude, err := proc.FindClaude(os.Getppid(), func(proc.Process) bool { return true })
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	l := paths.Layout{Home: os.Getenv("HOME")}
	if err := Ensure(l, claude, paths.Normalize(cwd), os.Getenv(sessionEnv), exe); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// claudeProc is a running stand-in Claude.
type claudeProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	layout paths.Layout
	cwd    string
}

// startClaude starts a stand-in Claude in cwd with HOME at home.
func startClaude(t *testing.T, home, cwd string) *claudeProc {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Dir = cwd
	// A binary built with -race sleeps a second in exit unless told not
	// to; the stand-in hooks inherit this.
	cmd.Env = append(os.Environ(), roleEnv+"=claude", "HOME="+home, "GORACE=atexit_sleep_ms=0")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &claudeProc{t: t, cmd: cmd, in: in, out: bufio.NewScanner(out), layout: paths.Layout{Home: home}, cwd: cwd}
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		c.cmd.Wait()
	})
	return c
}

// fire runs n hooks at once for session sessionID and waits for them.
func (c *claudeProc) fire(n int, sessionID string) {
	c.t.Helper()
	if _, err := fmt.Fprintln(c.in, n, sessionID); err != nil {
		c.t.Fatalf("asking stand-in claude for hooks: %v", err)
	}
	answer := make(chan string, 1)
	go func() {
		if c.out.Scan() {
			answer <- c.out.Text()
		} else {
			answer <- fmt.Sprintf("no answer: %v", c.out.Err())
		}
	}()
	select {
	case got := <-answer:
		if got != "ok" {
			c.t.Fatalf("stand-in claude: %s", got)
		}
	case <-time.After(10 * time.Second):
		// The hooks' stdout and stderr are read to the end: a holder that
		// kept a copy of those pipes would hang Claude just so.
		c.t.Fatal("stand-in claude still waiting for its hooks after 10 s")
	}
}

func (c *claudeProc) pid() int { return c.cmd.Process.Pid }

// kill9 kills the stand-in Claude and reaps it.
func (c *claudeProc) kill9() {
	c.t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		c.t.Fatal(err)
	}
	c.cmd.Wait()
}

// lockDir is where the stand-in's lock must be.
func (c *claudeProc) lockDir() string {
	return Dir(c.layout, paths.Normalize(c.cwd), c.pid())
}

// heldLock starts a stand-in Claude in a fresh home and fires one event,
// which takes its lock; it returns the Claude, its lock directory and the
// one holder.
func heldLock(t *testing.T) (claude *claudeProc, dir string, holder int) {
	t.Helper()
	home, project := newHome(t)
	claude = startClaude(t, home, project)
	dir = claude.lockDir()
	killHoldersAtCleanup(t, dir)
	claude.fire(1, "s1")
	holders := holdersOf(t, dir)
	if len(holders) != 1 {
		t.Fatalf("holders = %v, want one", holders)
	}
	return claude, dir, holders[0]
}

// holdersOf lists the live processes holding dir in hold mode, found by
// their command lines (a zombie has none).
func holdersOf(t *testing.T, dir string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		argv := strings.Split(string(b), "\x00")
		if len(argv) > 2 && argv[1] == HoldMode && argv[2] == dir {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killHoldersAtCleanup makes sure no holder of a test's locks outlives it.
func killHoldersAtCleanup(t *testing.T, dirs ...string) {
	t.Cleanup(func() {
		for _, dir := range dirs {
			for _, pid := range holdersOf(t, dir) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
}

// eventually polls cond every few milliseconds until it holds or timeout
// passes, and returns how long that took.
func eventually(t *testing.T, timeout time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > timeout {
			t.Fatalf("%s: not within %v", what, timeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Since(start)
}

// newHome makes a temporary home with a project directory in it.
func newHome(t *testing.T) (home, project string) {
	t.Helper()
	home = t.TempDir()
	project = filepath.Join(home, "src", "api")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	return home, project
}
