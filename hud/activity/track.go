package activity

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
)

// ToolEvent is the part of a hook event the activity tracker reads.
type ToolEvent struct {
	Event        string // hook_event_name
	ToolName     string
	ToolInput    json.RawMessage
	ToolResponse json.RawMessage
	AgentType    string // SubagentStart
	ProjectDir   string
	Now          time.Time
}

// Interesting reports whether an event can change a session's activity, so
// the hook skips every other event without touching a file.
func Interesting(event, toolName string) bool {
	switch event {
	case "PostToolUse":
		return isEditTool(toolName) || isTodoTool(toolName)
	case "PreToolUse":
		return isAgentTool(toolName)
	case "SubagentStart":
		return true
	}
	return false
}

func isEditTool(name string) bool {
	switch name {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// isTodoTool names the tools that keep the session's todo list: TodoWrite
// in older Claude Code versions, TaskCreate and TaskUpdate in 2.1.x
// (recorded in testdata/activity/09 and 10).
func isTodoTool(name string) bool {
	return name == "TodoWrite" || name == "TaskCreate" || name == "TaskUpdate"
}

// isAgentTool names the tool that starts a subagent: Task in older Claude
// Code versions, Agent in newer ones.
func isAgentTool(name string) bool { return name == "Task" || name == "Agent" }

// Apply folds one event into s and reports whether s changed.
func Apply(s *Session, ev ToolEvent) bool {
	if s.StartedAt.IsZero() {
		s.StartedAt = ev.Now
	}
	if ev.ProjectDir != "" {
		s.ProjectDir = ev.ProjectDir
	}
	changed := false
	switch {
	case ev.Event == "PostToolUse" && isEditTool(ev.ToolName):
		changed = applyEdit(s, ev)
	case ev.Event == "PostToolUse" && ev.ToolName == "TodoWrite":
		changed = applyTodos(s, ev.ToolInput)
	case ev.Event == "PostToolUse" && ev.ToolName == "TaskCreate":
		changed = applyTaskCreate(s, ev.ToolInput, ev.ToolResponse)
	case ev.Event == "PostToolUse" && ev.ToolName == "TaskUpdate":
		changed = applyTaskUpdate(s, ev.ToolInput)
	case ev.Event == "PreToolUse" && isAgentTool(ev.ToolName), ev.Event == "SubagentStart":
		s.SubagentRuns++
		changed = true
	}
	if changed {
		s.UpdatedAt = ev.Now
	}
	return changed
}

func applyEdit(s *Session, ev ToolEvent) bool {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	if json.Unmarshal(ev.ToolInput, &in) != nil {
		return false
	}
	path := in.FilePath
	if path == "" {
		path = in.NotebookPath
	}
	if path == "" {
		return false
	}
	rel := relativeTo(s.ProjectDir, path)
	// Write reports whether it created the file or replaced it.
	var out struct {
		Type string `json:"type"`
	}
	json.Unmarshal(ev.ToolResponse, &out)
	seen := slices.Contains(s.EditedFiles, rel)
	switch {
	case out.Type == "create":
		s.FilesCreated++
	case !seen:
		s.FilesModified++
	}
	s.EditedFiles = slices.DeleteFunc(s.EditedFiles, func(p string) bool { return p == rel })
	s.EditedFiles = slices.Insert(s.EditedFiles, 0, rel)
	if len(s.EditedFiles) > MaxEditedFiles {
		s.EditedFiles = s.EditedFiles[:MaxEditedFiles]
	}
	return true
}

func applyTodos(s *Session, input json.RawMessage) bool {
	var in struct {
		Todos []Todo `json:"todos"`
	}
	if json.Unmarshal(input, &in) != nil || in.Todos == nil {
		return false
	}
	if len(in.Todos) > MaxTodos {
		in.Todos = in.Todos[:MaxTodos]
	}
	s.Todos = in.Todos
	return true
}

// applyTaskCreate adds the task TaskCreate made: its subject from the
// input, its id from the response ({"task": {"id": "1", ...}}).
func applyTaskCreate(s *Session, input, response json.RawMessage) bool {
	var in struct {
		Subject    string `json:"subject"`
		ActiveForm string `json:"activeForm"`
	}
	var out struct {
		Task struct {
			ID      string `json:"id"`
			Subject string `json:"subject"`
		} `json:"task"`
	}
	if json.Unmarshal(input, &in) != nil {
		return false
	}
	json.Unmarshal(response, &out)
	subject := in.Subject
	if subject == "" {
		subject = out.Task.Subject
	}
	if subject == "" || len(s.Todos) >= MaxTodos {
		return false
	}
	s.Todos = append(s.Todos, Todo{ID: out.Task.ID, Content: subject, Status: "pending", ActiveForm: in.ActiveForm})
	return true
}

// applyTaskUpdate changes the task TaskUpdate names: its status ("deleted"
// removes it), subject or activeForm.
func applyTaskUpdate(s *Session, input json.RawMessage) bool {
	var in struct {
		TaskID     string `json:"taskId"`
		Status     string `json:"status"`
		Subject    string `json:"subject"`
		ActiveForm string `json:"activeForm"`
	}
	if json.Unmarshal(input, &in) != nil || in.TaskID == "" {
		return false
	}
	i := slices.IndexFunc(s.Todos, func(t Todo) bool { return t.ID == in.TaskID })
	if i < 0 {
		return false // made before hud watched this session
	}
	t := &s.Todos[i]
	switch in.Status {
	case "deleted":
		s.Todos = slices.Delete(s.Todos, i, i+1)
		return true
	case "pending", "in_progress", "completed":
		t.Status = in.Status
	}
	if in.Subject != "" {
		t.Content = in.Subject
	}
	if in.ActiveForm != "" {
		t.ActiveForm = in.ActiveForm
	}
	return true
}

// relativeTo returns path relative to dir when it lies inside dir, else
// path itself, cleaned.
func relativeTo(dir, path string) string {
	path = filepath.Clean(path)
	if dir == "" || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// SubagentInvocation is a line of agent-invocations.jsonl: a subagent started.
type SubagentInvocation struct {
	Timestamp string `json:"timestamp"`
	Agent     string `json:"agent"`
	Prompt    string `json:"prompt"`
	Session   string `json:"session"`
}

// PromptPreview is how much of an agent's prompt the log keeps.
const PromptPreview = 100

// AgentInvocationFor describes a Task/Agent tool call or a SubagentStart,
// or returns false for any other event.
func AgentInvocationFor(sessionID string, ev ToolEvent) (SubagentInvocation, bool) {
	inv := SubagentInvocation{Timestamp: ev.Now.UTC().Format(time.RFC3339Nano), Session: sessionID}
	switch {
	case ev.Event == "SubagentStart":
		inv.Agent = ev.AgentType
	case ev.Event == "PreToolUse" && isAgentTool(ev.ToolName):
		var in struct {
			SubagentType string `json:"subagent_type"`
			Prompt       string `json:"prompt"`
			Description  string `json:"description"`
		}
		json.Unmarshal(ev.ToolInput, &in)
		inv.Agent = in.SubagentType
		inv.Prompt = in.Prompt
		if inv.Prompt == "" {
			inv.Prompt = in.Description
		}
	default:
		return SubagentInvocation{}, false
	}
	if inv.Agent == "" {
		inv.Agent = "general-purpose"
	}
	inv.Prompt = text.Head(inv.Prompt, PromptPreview)
	return inv, true
}
