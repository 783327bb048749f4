package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestIsClaude(t *testing.T) {
	dir := t.TempDir()
	write := func(pid int, body string) {
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(pid)+".json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(100, `{"pid":100,"sessionId":"s","procStart":"4242"}`)
	write(101, `{"pid":101,"procStart":"4242"}`)
	write(102, `{"pid":999}`)
	write(103, `not json`)
	if err := syscall.Mkfifo(filepath.Join(dir, "104.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	isClaude := IsClaude(dir)
	cases := []struct {
		name string
		p    Process
		want bool
	}{
		{"the native binary", Process{PID: 1, Comm: "claude"}, true},
		{"named by Claude's session file", Process{PID: 100, Comm: "python3", StartTicks: 4242}, true},
		{"a session file of an earlier process with the pid", Process{PID: 101, Comm: "python3", StartTicks: 7}, false},
		{"a session file naming another pid", Process{PID: 102, Comm: "lefthook"}, false},
		{"a session file that does not parse", Process{PID: 103, Comm: "lefthook"}, false},
		{"a FIFO at the session file's name (not waited on)", Process{PID: 104, Comm: "lefthook"}, false},
		{"a hook manager", Process{PID: 2, Comm: "lefthook"}, false},
		{"a test runner", Process{PID: 3, Comm: "hook.test"}, false},
		{"no comm", Process{PID: 4}, false},
	}
	for _, c := range cases {
		if got := isClaude(c.p); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRunsClaude(t *testing.T) {
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}, true},
		{[]string{"node", "--no-warnings", "/home/ann/.npm-global/bin/claude", "--resume"}, true},
		{[]string{"bun", "/opt/claude-code/cli.js"}, true},
		{[]string{"node", "/srv/app/server.js", "claude"}, false},
		{[]string{"node"}, false},
		{nil, false},
	}
	for _, c := range cases {
		if got := runsClaude(c.args); got != c.want {
			t.Errorf("runsClaude(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// TestFindClaudeWalksPastWrappers: a program between Claude and the hook
// that is neither a shell nor Claude (here flock, as a hook manager would
// sit) is walked past; with no Claude above, FindClaude says so rather
// than tie the lock to the wrapper.
func TestFindClaudeWalksPastWrappers(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock not installed")
	}
	lock := filepath.Join(t.TempDir(), "lock")
	cmd := exec.Command("/bin/sh", "-c", "flock "+lock+" sleep 30; exit")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	wrapper := childOf(t, cmd.Process.Pid)

	me := os.Getpid()
	got, err := FindClaude(wrapper, func(p Process) bool { return p.PID == me })
	if err != nil || got.PID != me {
		t.Errorf("FindClaude(flock) = pid %d (%s), %v; want the test process %d", got.PID, got.Comm, err, me)
	}
	_, err = FindClaude(wrapper, func(Process) bool { return false })
	if err == nil || !strings.Contains(err.Error(), "flock "+strconv.Itoa(wrapper)) {
		t.Errorf("with no Claude above: %v, want an error naming the wrapper", err)
	}
}

// childOf waits for pid's first child and returns it.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
		if f := strings.Fields(string(b)); len(f) > 0 {
			child, _ := strconv.Atoi(f[0])
			if p, err := Inspect(child); err == nil && p.Comm == "flock" {
				return child
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("pid %d started no flock", pid)
	return 0
}
