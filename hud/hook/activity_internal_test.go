package hook

import (
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
)

// TestPeriodicCheckpointIsClaimedOnce: a tool event starts the automatic
// checkpoint worker only when one is due, and moves the clock forward so
// the tool calls that follow (parallel ones included) do not start more.
func TestPeriodicCheckpointIsClaimedOnce(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	if _, err := activity.Update(l, "s1", func(s *activity.Session) bool {
		s.ProjectDir, s.StartedAt, s.CheckpointEvery = "/p", start, 15*time.Minute
		return true
	}); err != nil {
		t.Fatal(err)
	}
	spawned := 0
	ctxAt := func(now time.Time) *Context {
		return &Context{Layout: l, Event: &Event{SessionID: "s1", HookEventName: EventPostToolUse, ToolName: "Bash"},
			After: &store.Record{SessionID: "s1", State: store.StateWorking, ProjectDir: "/p"}, Now: now,
			executable: func() (string, error) { spawned++; return "", errors.New("no worker in tests") }}
	}
	path, _ := activity.Path(l, "s1")
	before, _ := os.Stat(path)

	if err := maybePeriodicCheckpoint(ctxAt(start.Add(10 * time.Minute))); err != nil || spawned != 0 {
		t.Fatalf("10 min in: err %v, %d workers; want none", err, spawned)
	}
	if after, _ := os.Stat(path); !after.ModTime().Equal(before.ModTime()) {
		t.Error("a tool event with nothing due rewrote the activity file")
	}

	due := start.Add(16 * time.Minute)
	if err := maybePeriodicCheckpoint(ctxAt(due)); err == nil || spawned != 1 {
		t.Fatalf("16 min in: err %v, %d workers; want the worker started once", err, spawned)
	}
	if s, _ := activity.Load(l, "s1"); !s.LastCheckpoint.Equal(due) {
		t.Errorf("last checkpoint %v, want it claimed at %v", s.LastCheckpoint, due)
	}
	if err := maybePeriodicCheckpoint(ctxAt(due.Add(time.Second))); err != nil || spawned != 1 {
		t.Errorf("the next tool call: err %v, %d workers; want no second worker", err, spawned)
	}
}

// TestJobsGoToTheLockEnsureTakes: the lock directory the hook sends its
// jobs to is the one ensureLockHolder made for the same Claude process,
// before and after /clear; with no Claude process there is none.
func TestJobsGoToTheLockEnsureTakes(t *testing.T) {
	claude := exec.Command("sleep", "60")
	if err := claude.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { claude.Process.Kill(); claude.Wait() }()
	p, err := proc.Inspect(claude.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	l := paths.Layout{Home: t.TempDir()}
	ctx := func(event, sessionID, cwd string) *Context {
		return &Context{Layout: l, Event: &Event{SessionID: sessionID, HookEventName: event, CWD: cwd},
			After: &store.Record{SessionID: sessionID, CWD: cwd}, process: p,
			// No holder starts: the lock directory is what is checked.
			executable: func() (string, error) { return "/bin/true", nil }}
	}
	start := ctx(EventSessionStart, "s1", "/home/ann/api")
	if err := ensureLockHolder(start); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(start.lockDir()); err != nil || !info.IsDir() {
		t.Fatalf("SessionStart's lock directory %s: %v", start.lockDir(), err)
	}
	if got := ctx(EventStop, "s2", "/home/ann/api").lockDir(); got != start.lockDir() {
		t.Errorf("Stop after /clear sends to %s, want %s", got, start.lockDir())
	}
	none := ctx(EventStop, "s1", "/home/ann/api")
	none.process = proc.Process{}
	if got := none.lockDir(); got != "" {
		t.Errorf("no Claude process: lock dir %q, want none", got)
	}
}
