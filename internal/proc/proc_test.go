package proc

import (
	"os"
	"os/exec"
	"testing"
)

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// self is the test process, the one live process every test may name.
func self(t *testing.T) Process {
	t.Helper()
	p, err := Inspect(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProcessSame(t *testing.T) {
	p := Process{PID: 42, Started: 1000}
	for _, tt := range []struct {
		pid     int
		started int64
		want    bool
	}{
		{42, 1000, true},
		{42, 999, true}, // boot-time jitter
		{42, 1001, true},
		{42, 998, false}, // another process that had the pid
		{42, 1002, false},
		{43, 1000, false},
	} {
		if got := p.Same(tt.pid, tt.started); got != tt.want {
			t.Errorf("Same(%d, %d) = %v, want %v", tt.pid, tt.started, got, tt.want)
		}
	}
}

func TestIsShell(t *testing.T) {
	for _, tt := range []struct {
		comm string
		want bool
	}{
		{"sh", true},
		{"bash", true},
		{"-zsh", true}, // a login shell
		{"/bin/dash", true},
		{"env", true},
		{"claude", false},
		{"node", false},
		{"lockholder.test", false},
		{"", false},
		{"shell", false},
	} {
		if got := IsShell(tt.comm); got != tt.want {
			t.Errorf("IsShell(%q) = %v, want %v", tt.comm, got, tt.want)
		}
	}
}

func TestAlive(t *testing.T) {
	me := self(t)
	dead := deadPID(t)
	for _, tt := range []struct {
		name    string
		pid     int
		started int64
		want    bool
	}{
		{"self, any start", me.PID, 0, true},
		{"self, its start", me.PID, me.Started, true},
		{"self, a second off (boot time jitter)", me.PID, me.Started + 1, true},
		{"self, another start (reused pid)", me.PID, me.Started - 60, false},
		{"dead", dead, 0, false},
		{"no pid", 0, 0, false},
		{"negative", -1, 0, false},
	} {
		if got := Alive(tt.pid, tt.started); got != tt.want {
			t.Errorf("%s: Alive(%d, %d) = %v, want %v", tt.name, tt.pid, tt.started, got, tt.want)
		}
	}
}

// FindClaude walks past the shell that runs a hook to the process above it.
func TestFindClaudeSkipsShells(t *testing.T) {
	// sh -c 'sh -c "cat"': the inner process's parents are two shells, then us.
	cmd := exec.Command("/bin/sh", "-c", `/bin/sh -c 'read x; echo $x'; exit`)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	got, err := FindClaude(cmd.Process.Pid, func(p Process) bool { return p.PID == os.Getpid() })
	if err != nil {
		t.Fatal(err)
	}
	if got.PID != os.Getpid() {
		t.Errorf("FindClaude(shell) = pid %d (%s), want the test process %d", got.PID, got.Comm, os.Getpid())
	}
}
