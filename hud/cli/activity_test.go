package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/internal/paths"
)

// activityEnv is a temp home with one recorded session in a git project.
func activityEnv(t *testing.T) (*Env, *bytes.Buffer, *bytes.Buffer, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	home, proj := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.email", "t@example.com"}, {"config", "user.name", "T"}} {
		if out, err := exec.Command("git", append([]string{"-C", proj}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := paths.Layout{Home: home}
	if _, err := activity.Update(l, "7261fbe8-c132-4197-8154-4b9c1e3e818d", func(s *activity.Session) bool {
		s.ProjectDir, s.StartedAt, s.WorkingOn = proj, now.Add(-30*time.Minute), "fix the login form"
		s.EditedFiles = []string{"login.go", "login_test.go"}
		s.Todos = []activity.Todo{{Content: "reproduce", Status: "completed"}, {Content: "fix", Status: "in_progress"}}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	activity.AppendJSONL(activity.AgentLogPath(l), activity.SubagentInvocation{Timestamp: now.Format(time.RFC3339), Agent: "Explore", Prompt: "find the form", Session: "7261fbe8-c132-4197-8154-4b9c1e3e818d"})
	var stdout, stderr bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Home: home,
		Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}
	return env, &stdout, &stderr, proj
}

func TestActivityCommand(t *testing.T) {
	env, stdout, stderr, proj := activityEnv(t)
	if code := Main([]string{"activity", proj}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"7261fbe8-c132", "fix the login form", "1/2 todos · 2 files", "[x] reproduce", "[~] fix", "login_test.go", "Explore", "no checkpoint yet"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	stdout.Reset()
	if code := Main([]string{"activity", "--json", "7261fbe8"}, env); code != 0 {
		t.Fatalf("by id prefix: exit %d: %s", code, stderr)
	}
	var rep struct {
		Facts  activity.Facts
		Agents []activity.SubagentInvocation
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Facts.TodosTotal != 2 || len(rep.Agents) != 1 {
		t.Errorf("--json: %+v, %v\n%s", rep, err, stdout)
	}
	stderr.Reset()
	if code := Main([]string{"activity", filepath.Join(t.TempDir(), "elsewhere")}, env); code != 1 || !strings.Contains(stderr.String(), "hint:") {
		t.Errorf("unknown project: exit %d, stderr %q", code, stderr)
	}
}

func TestCheckpointCommand(t *testing.T) {
	env, stdout, stderr, proj := activityEnv(t)
	if code := Main([]string{"checkpoint", proj}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cp, err := activity.ReadCheckpoint(proj)
	if err != nil || cp == nil {
		t.Fatalf("no checkpoint: %v", err)
	}
	if cp.CheckpointReason != "manual" || cp.SessionID != "session_2026-11-22_11-30-00" || cp.ProjectRoot != proj ||
		cp.Git == nil || cp.Git.Branch != "main" || len(cp.Todos) != 2 {
		t.Errorf("checkpoint %+v", cp)
	}
	if !strings.Contains(stdout.String(), ".project-state.json") {
		t.Errorf("output %q", stdout)
	}
	// Not a project: refused with a hint, nothing written.
	plain := t.TempDir()
	activity.Update(paths.Layout{Home: env.Home}, "other", func(s *activity.Session) bool { s.ProjectDir = plain; return true })
	stderr.Reset()
	if code := Main([]string{"checkpoint", "--session", "other"}, env); code != 1 || !strings.Contains(stderr.String(), "hint:") {
		t.Errorf("non-project: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(plain, ".claude")); !os.IsNotExist(err) {
		t.Error("wrote into a non-project directory")
	}
}
