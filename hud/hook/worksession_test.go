package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// followUpContext is a Context for one event in a project under a temp
// home, with the settings file text given (empty: defaults).
func followUpContext(t *testing.T, home, project string, ev *Event, now time.Time, settings string) *Context {
	t.Helper()
	if settings != "" {
		path := filepath.Join(home, ".config", "hud", "config.toml")
		os.MkdirAll(filepath.Dir(path), 0o700)
		if err := os.WriteFile(path, []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
		// As the tray does when the file changes: the hook reads the copy.
		config.Load(path, nil)
	}
	ev.CWD = project
	return &Context{
		Layout: paths.Layout{Home: home},
		Event:  ev,
		After:  &store.Record{SessionID: "s1", State: store.StateWorking, CWD: project, ProjectDir: paths.ProjectRoot(project, "")},
		Now:    now,
		Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		},
		Logf: func(format string, args ...any) { t.Errorf("logged: "+format, args...) },
	}
}

func TestWorkSessionFollowUp(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(project, ".git"), 0o755)
	project = paths.Normalize(project)
	t0 := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)

	// No session: nothing written, nothing created.
	ctx := followUpContext(t, home, project, &Event{HookEventName: EventUserPromptSubmit}, t0, "")
	if err := trackWorkSession(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude")); !os.IsNotExist(err) {
		t.Fatalf("created .claude without a session: %v", err)
	}

	s, _ := worksession.New("Fix login", "api", t0)
	files := worksession.Files{Layout: paths.Layout{Home: home}}
	if err := files.Create(project, s); err != nil {
		t.Fatal(err)
	}
	now := t0
	send := func(d time.Duration, ev *Event, settings string) *Context {
		t.Helper()
		now = now.Add(d)
		ctx := followUpContext(t, home, filepath.Join(project, "sub"), ev, now, settings)
		if err := trackWorkSession(ctx); err != nil {
			t.Fatal(err)
		}
		return ctx
	}
	// A Task run of 12 min from a subdirectory of the project.
	input, _ := json.Marshal(map[string]string{"description": "Explore the code", "subagent_type": "Explore"})
	send(time.Minute, &Event{HookEventName: EventPreToolUse, ToolName: "Task", ToolInput: input}, "")
	send(11*time.Minute, &Event{HookEventName: EventPreToolUse, ToolName: "Read", AgentID: "a1"}, "")
	send(time.Minute, &Event{HookEventName: EventPostToolUse, ToolName: "Task"}, "")
	got, err := worksession.Load(project)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pauses) != 1 || got.Pauses[0].Type != worksession.AutoTask || got.Pauses[0].Reason != "Task agent: Explore the code" ||
		got.Pauses[0].DurationMs != (12*time.Minute).Milliseconds() || got.ActualWorkingMs != time.Minute.Milliseconds() {
		t.Errorf("after the task: %+v", got)
	}

	// Work to the timeout in 1 min steps; strict blocks the next prompt.
	strict := "[work_session]\nstrict = true\n"
	for range 89 {
		send(time.Minute, &Event{HookEventName: EventPostToolUse, ToolName: "Bash"}, strict)
	}
	ctx = send(time.Minute, &Event{HookEventName: EventUserPromptSubmit}, strict)
	if !strings.Contains(ctx.blocked, "timed out") || strings.Contains(ctx.blocked, "\n") {
		t.Errorf("strict timeout: blocked = %q", ctx.blocked)
	}
	// Not strict: the same prompt goes through.
	if ctx := send(time.Minute, &Event{HookEventName: EventUserPromptSubmit}, "[work_session]\nstrict = false\n"); ctx.blocked != "" {
		t.Errorf("not strict: blocked %q", ctx.blocked)
	}
	// Resumed: no block.
	files.Update(project, func(s *worksession.State) error { return s.Resume(now) })
	if ctx := send(time.Minute, &Event{HookEventName: EventUserPromptSubmit}, strict); ctx.blocked != "" {
		t.Errorf("after resume: blocked %q", ctx.blocked)
	}
}
