package hook_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/internal/paths"
)

// buildHook builds the real hud-hook once per test: the activity follow-up
// starts it again, detached, as its worker.
func buildHook(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hud-hook")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/hud-hook")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building hud-hook: %v\n%s", err, out)
	}
	return bin
}

// fire runs the hook binary on one event and returns its stdout.
func fire(t *testing.T, bin, home, project, event string) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "CLAUDE_PROJECT_DIR=" + project}
	cmd.Stdin = strings.NewReader(event)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hook: %v (stderr %q)", err, stderr.String())
	}
	return stdout.String()
}

// awaitWorkers waits for the detached activity workers the test's hooks
// started (their command line names the test's home) to exit, so that
// none still writes when the test's temp directories are removed. A worker
// alive after 20 s fails the test: a worker must end on its own.
func awaitWorkers(t *testing.T, home string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		running := workersOf(t, home)
		if len(running) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("activity workers still running 20 s after the test: %q", running)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// workersOf lists the command lines of the running activity workers for
// home (ps, to work on macOS too).
func workersOf(t *testing.T, home string) []string {
	t.Helper()
	out, err := exec.Command("ps", "-A", "-o", "args=").Output()
	if err != nil {
		t.Fatalf("ps: %v", err)
	}
	var running []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, activity.WorkerMode) && strings.Contains(line, home) {
			running = append(running, strings.TrimSpace(line))
		}
	}
	return running
}

// waitFor polls for a file the detached worker writes.
func waitFor(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
}

func TestActivityFollowUpEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hook binary")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	bin := buildHook(t)
	home, proj := t.TempDir(), t.TempDir()
	// The hooks start detached workers that write into home and proj; the
	// test ends when they do (cleanups run last-registered first, so this
	// one runs before the temp directories are removed).
	t.Cleanup(func() { awaitWorkers(t, home) })
	if out, err := exec.Command("git", "-C", proj, "init", "-q", "-b", "main").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	l := paths.Layout{Home: home}
	const id = "5c0ffee0-1111-4222-8333-944445555666"
	ev := func(name, extra string) string {
		return `{"session_id":"` + id + `","cwd":"` + proj + `","hook_event_name":"` + name + `"` + extra + `}`
	}
	if out := fire(t, bin, home, proj, ev("SessionStart", `,"source":"startup"`)); out != "" {
		t.Fatalf("SessionStart printed %q", out)
	}
	fire(t, bin, home, proj, ev("UserPromptSubmit", `,"prompt":"add the parser"`))
	fire(t, bin, home, proj, ev("PostToolUse", `,"tool_name":"Write","tool_input":{"file_path":"`+proj+`/parser.go","content":"x"},"tool_response":{"type":"create"}`))
	fire(t, bin, home, proj, ev("PostToolUse", `,"tool_name":"TodoWrite","tool_input":{"todos":[{"content":"write the parser","status":"in_progress","activeForm":"Writing"}]}`))
	fire(t, bin, home, proj, ev("PreToolUse", `,"tool_name":"Task","tool_input":{"subagent_type":"Explore","prompt":"look around"}`))

	s, err := activity.Load(l, id)
	if err != nil || s == nil {
		t.Fatalf("activity: %v, %v", s, err)
	}
	if got := activity.FactsOf(s).Summary(); !strings.HasPrefix(got, "0/1 todos · 1 file") {
		t.Errorf("activity after the tool events: %q", got)
	}
	if agents, _ := activity.ReadJSONL[activity.SubagentInvocation](activity.AgentLogPath(l)); len(agents) != 1 || agents[0].Agent != "Explore" {
		t.Errorf("agent log: %+v", agents)
	}

	// Stop: the worker writes the checkpoint.
	fire(t, bin, home, proj, ev("Stop", `,"stop_hook_active":false`))
	waitFor(t, activity.CheckpointPath(proj))
	if cp, err := activity.ReadCheckpoint(proj); err != nil || !strings.Contains(cp.ContextNotes, "add the parser") {
		t.Errorf("checkpoint context notes %q (%v): want the prompt", cp.ContextNotes, err)
	}

	// PreCompact: the worker saves the handoff before compaction ends.
	fire(t, bin, home, proj, ev("PreCompact", `,"trigger":"manual"`))
	handoff, _ := activity.HandoffPath(l, id)
	waitFor(t, handoff)

	// After compaction the note is printed only when the person enabled it.
	if out := fire(t, bin, home, proj, ev("SessionStart", `,"source":"compact"`)); out != "" {
		t.Errorf("restore note printed while disabled: %q", out)
	}
	cfg := filepath.Join(home, ".config", "hud", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte("[activity]\nrestore_on_compact = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The tray reads the file when it changes, which leaves the hook its
	// copy of the settings.
	config.Load(cfg, nil)
	out := fire(t, bin, home, proj, ev("SessionStart", `,"source":"compact"`))
	for _, want := range []string{"add the parser", "write the parser", "parser.go"} {
		if !strings.Contains(out, want) {
			t.Errorf("restore note lacks %q:\n%s", want, out)
		}
	}
}
