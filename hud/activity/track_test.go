package activity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// payload is the part of a recorded hook payload the tests feed Apply.
type payload struct {
	SessionID    string          `json:"session_id"`
	Event        string          `json:"hook_event_name"`
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	AgentType    string          `json:"agent_type"`
}

func loadFixture(t *testing.T, name string) payload {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "activity", name))
	if err != nil {
		t.Fatal(err)
	}
	var p payload
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

func (p payload) toolEvent(now time.Time) ToolEvent {
	return ToolEvent{Event: p.Event, ToolName: p.ToolName, ToolInput: p.ToolInput,
		ToolResponse: p.ToolResponse, AgentType: p.AgentType, ProjectDir: "/home/dev/proj", Now: now}
}

// TestReplayFixtures folds the recorded-format tool events in order and
// checks the session's activity after each.
func TestReplayFixtures(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	steps := []struct {
		fixture     string
		interesting bool
		files       []string
		created     int
		modified    int
		todos       string
		agents      int
	}{
		{"01-PostToolUse-Write.json", true, []string{"src/new.go"}, 1, 0, "0/0", 0},
		{"02-PostToolUse-Edit.json", true, []string{"README.md", "src/new.go"}, 1, 1, "0/0", 0},
		{"03-PostToolUse-MultiEdit.json", true, []string{"src/new.go", "README.md"}, 1, 1, "0/0", 0},
		{"04-PostToolUse-NotebookEdit.json", true, []string{"analysis.ipynb", "src/new.go", "README.md"}, 1, 2, "0/0", 0},
		{"05-PostToolUse-TodoWrite.json", true, []string{"analysis.ipynb", "src/new.go", "README.md"}, 1, 2, "1/3", 0},
		{"06-PreToolUse-Task.json", true, []string{"analysis.ipynb", "src/new.go", "README.md"}, 1, 2, "1/3", 1},
		{"07-SubagentStart.json", true, []string{"analysis.ipynb", "src/new.go", "README.md"}, 1, 2, "1/3", 2},
		{"08-PostToolUse-Edit-outside.json", true, []string{"/etc/hosts", "analysis.ipynb", "src/new.go", "README.md"}, 1, 3, "1/3", 2},
	}
	s := &Session{SessionID: "5c0ffee0-1111-4222-8333-944445555666"}
	for i, st := range steps {
		p := loadFixture(t, st.fixture)
		if got := Interesting(p.Event, p.ToolName); got != st.interesting {
			t.Errorf("%s: Interesting = %v", st.fixture, got)
		}
		if !Apply(s, p.toolEvent(t0.Add(time.Duration(i)*time.Second))) {
			t.Errorf("%s: Apply reported no change", st.fixture)
		}
		if !slices.Equal(s.EditedFiles, st.files) {
			t.Errorf("%s: edited %q, want %q", st.fixture, s.EditedFiles, st.files)
		}
		if s.FilesCreated != st.created || s.FilesModified != st.modified {
			t.Errorf("%s: created/modified %d/%d, want %d/%d", st.fixture, s.FilesCreated, s.FilesModified, st.created, st.modified)
		}
		done, total := s.TodoCounts()
		if got := strings.Join([]string{itoa(done), itoa(total)}, "/"); got != st.todos {
			t.Errorf("%s: todos %s, want %s", st.fixture, got, st.todos)
		}
		if s.SubagentRuns != st.agents {
			t.Errorf("%s: agents %d, want %d", st.fixture, s.SubagentRuns, st.agents)
		}
	}
	if !s.StartedAt.Equal(t0) {
		t.Errorf("StartedAt %v, want the first event's time", s.StartedAt)
	}
	if open := s.OpenTodos(); len(open) != 2 || open[0].ActiveForm != "Testing the parser" {
		t.Errorf("open todos %+v", open)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestUninterestingEventsCostNothing(t *testing.T) {
	for _, c := range []struct{ event, tool string }{
		{"PreToolUse", "Bash"}, {"PostToolUse", "Bash"}, {"PostToolUse", "Read"},
		{"PreToolUse", "Edit"}, {"Stop", ""}, {"UserPromptSubmit", ""}, {"Notification", ""},
	} {
		if Interesting(c.event, c.tool) {
			t.Errorf("Interesting(%s, %s) = true", c.event, c.tool)
		}
	}
}

func TestEditedFilesCappedMostRecentFirst(t *testing.T) {
	s := &Session{ProjectDir: "/p"}
	now := time.Now()
	for i := range MaxEditedFiles + 10 {
		in, _ := json.Marshal(map[string]string{"file_path": filepath.Join("/p", "f"+strings.Repeat("x", i))})
		Apply(s, ToolEvent{Event: "PostToolUse", ToolName: "Edit", ToolInput: in, Now: now})
	}
	if len(s.EditedFiles) != MaxEditedFiles {
		t.Fatalf("%d files kept, want %d", len(s.EditedFiles), MaxEditedFiles)
	}
	if want := "f" + strings.Repeat("x", MaxEditedFiles+9); s.EditedFiles[0] != want {
		t.Errorf("first %q, want the newest %q", s.EditedFiles[0], want)
	}
}

func TestAgentInvocationFor(t *testing.T) {
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	task := loadFixture(t, "06-PreToolUse-Task.json")
	inv, ok := AgentInvocationFor("s1", task.toolEvent(now))
	if !ok || inv.Agent != "Explore" || inv.Session != "s1" || inv.Timestamp != "2026-11-22T09:00:00Z" {
		t.Fatalf("Task: %+v, %v", inv, ok)
	}
	if n := len([]rune(inv.Prompt)); n != PromptPreview {
		t.Errorf("prompt kept %d runes, want %d", n, PromptPreview)
	}
	sub := loadFixture(t, "07-SubagentStart.json")
	if inv, ok := AgentInvocationFor("s1", sub.toolEvent(now)); !ok || inv.Agent != "Explore" {
		t.Errorf("SubagentStart: %+v, %v", inv, ok)
	}
	edit := loadFixture(t, "02-PostToolUse-Edit.json")
	if _, ok := AgentInvocationFor("s1", edit.toolEvent(now)); ok {
		t.Error("an Edit is not an agent invocation")
	}
}

func TestSessionPathRejectsTraversal(t *testing.T) {
	l := testLayout(t)
	for _, id := range []string{"../../etc", "..", ".", "a/b", "", "x\x00y", strings.Repeat("a", 200)} {
		if _, err := Path(l, id); err == nil {
			t.Errorf("Path(%q) accepted", id)
		}
		if _, err := Update(l, id, func(*Session) bool { return true }); err == nil {
			t.Errorf("Update(%q) accepted", id)
		}
	}
	if _, err := Path(l, "7261fbe8-c132-4197-8154-4b9c1e3e818d"); err != nil {
		t.Errorf("a real session id was refused: %v", err)
	}
}

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		f    Facts
		want string
	}{
		{Facts{}, ""},
		{Facts{TodosDone: 3, TodosTotal: 7, FilesEdited: 12, Branch: "main", Dirty: true, Commits: 2}, "3/7 todos · 12 files · main* · 2 commits"},
		{Facts{FilesEdited: 1, Branch: "dev", Commits: 1, SubagentRuns: 1}, "1 file · dev · 1 commit · 1 agent"},
	} {
		if got := c.f.Summary(); got != c.want {
			t.Errorf("Summary(%+v) = %q, want %q", c.f, got, c.want)
		}
	}
}

// TestTaskToolsKeepTheTodoList replays what Claude Code 2.1.197 recorded
// for its todo list (TaskCreate, TaskUpdate; fixtures 09 and 10), around a
// second task and a deletion.
func TestTaskToolsKeepTheTodoList(t *testing.T) {
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	s := &Session{SessionID: "6e4287ea-50f8-4497-9e30-25ce65a2a2e4"}
	created := loadFixture(t, "09-PostToolUse-TaskCreate.json")
	if !Interesting(created.Event, created.ToolName) || !Apply(s, created.toolEvent(now)) {
		t.Fatal("TaskCreate was not recorded")
	}
	second := ToolEvent{Event: "PostToolUse", ToolName: "TaskCreate", Now: now,
		ToolInput:    json.RawMessage(`{"subject":"ship it","description":"ship it","activeForm":"Shipping it"}`),
		ToolResponse: json.RawMessage(`{"task":{"id":"2","subject":"ship it"}}`)}
	Apply(s, second)
	updated := loadFixture(t, "10-PostToolUse-TaskUpdate.json")
	if !Interesting(updated.Event, updated.ToolName) || !Apply(s, updated.toolEvent(now)) {
		t.Fatal("TaskUpdate was not recorded")
	}
	if done, total := s.TodoCounts(); done != 1 || total != 2 || s.Todos[0].Content != "test it" || s.Todos[1].ActiveForm != "Shipping it" {
		t.Errorf("todos %+v", s.Todos)
	}
	// A task deleted, and an update of a task made before hud watched.
	Apply(s, ToolEvent{Event: "PostToolUse", ToolName: "TaskUpdate", Now: now, ToolInput: json.RawMessage(`{"taskId":"2","status":"deleted"}`)})
	if Apply(s, ToolEvent{Event: "PostToolUse", ToolName: "TaskUpdate", Now: now, ToolInput: json.RawMessage(`{"taskId":"9","status":"completed"}`)}) {
		t.Error("an unknown task id changed the list")
	}
	if len(s.Todos) != 1 || s.Todos[0].ID != "1" || s.Todos[0].Status != "completed" {
		t.Errorf("after the deletion: %+v", s.Todos)
	}
	// The checkpoint keeps the checkpoint's todo fields only.
	cp := BuildCheckpoint(s, ReasonManual, now, nil, nil, nil)
	if b, _ := json.Marshal(cp.Todos); strings.Contains(string(b), `"id"`) {
		t.Errorf("checkpoint todos carry ids: %s", b)
	}
}
