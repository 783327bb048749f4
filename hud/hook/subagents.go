package hook

import (
	"slices"
	"strings"

	"github.com/capacitor-hud/hud/internal/jsonfields"
	"github.com/capacitor-hud/hud/internal/store"
)

// maxSubagents bounds the agent ids a record keeps: a count for the menu,
// not a log.
const maxSubagents = 32

// BackgroundTask is one entry of Stop's background_tasks (Claude Code
// 2.1.145 and later): work registered in the session that runs on after
// the main turn.
type BackgroundTask struct {
	ID     string
	Type   string // "subagent", "shell", "monitor", "workflow", …
	Status string // "running", "pending", …
}

func (t *BackgroundTask) fields() []jsonfields.Field {
	return []jsonfields.Field{
		jsonfields.String("id", &t.ID),
		jsonfields.String("type", &t.Type),
		jsonfields.String("status", &t.Status),
	}
}

// runningSubagents returns the ids of the subagents a Stop says still run.
// Only subagents hold the turn open: Claude waits for them and continues
// by itself with their result, and its own session file says busy the
// whole time. A background shell (a dev server) may run for hours and is
// not the turn's work.
func runningSubagents(tasks *[]BackgroundTask) []string {
	if tasks == nil {
		return nil
	}
	var ids []string
	for _, t := range *tasks {
		if t.Type == "subagent" && (t.Status == "running" || t.Status == "pending") && t.ID != "" {
			ids = addSubagent(ids, t.ID)
		}
	}
	return ids
}

// addSubagent returns ids with id added. The result never shares memory with
// ids: a record copied from the one before must not change it.
func addSubagent(ids []string, id string) []string {
	if id == "" || slices.Contains(ids, id) || len(ids) >= maxSubagents {
		return ids
	}
	return append(slices.Clip(ids), id)
}

// removeSubagent returns ids without id, in new memory.
func removeSubagent(ids []string, id string) []string {
	i := slices.Index(ids, id)
	if i < 0 {
		return ids
	}
	out := slices.Delete(slices.Clone(ids), i, i+1)
	if len(out) == 0 {
		return nil
	}
	return out
}

// injectedTags open the prompts Claude Code writes itself: a background
// task's result, a teammate's or another session's message, an event of
// an artifact page.
var injectedTags = []string{
	"<task-notification>",
	"<teammate-message",
	"<cross-session-message",
	"<channel",
	"<artifact-room-event",
	"[SYSTEM NOTIFICATION",
}

// injectedPrompt reports whether a UserPromptSubmit carries a prompt
// Claude Code wrote itself rather than the person. Newer clients say so
// in source ("user" and "sdk" are a person's; "system", the wake-ups and
// poll events are not); before that field, and while it rolls out (2.1.330
// omits it on a <task-notification>), the prompt's opening tag tells.
func injectedPrompt(ev *Event) bool {
	switch ev.Source {
	case "user", "sdk":
		return false
	case "":
	default:
		return true
	}
	p := strings.TrimSpace(ev.Prompt)
	for _, tag := range injectedTags {
		if strings.HasPrefix(p, tag) {
			return true
		}
	}
	return false
}

// notification applies a Notification to r by its type and returns the
// new state.
func notification(r *store.Record, ev *Event) store.State {
	switch ev.NotificationType {
	case notifyPermissionPrompt, notifyElicitationDialog, notifyAgentNeedsInput:
		// The PermissionRequest or Elicitation before it said better what
		// is waited for than the notification's generic message.
		if r.WaitingFor == "" || r.State != store.StateWaiting {
			r.WaitingFor = oneLine(ev.Message, maxWaitingFor)
		}
		return store.StateWaiting
	case notifyElicitationComplete, notifyElicitationResponse:
		return answered(r)
	case notifyIdlePrompt:
		// Claude sat at its prompt; but a tool or an agent it waits for
		// still means work, and its own session file corrects a stale
		// record anyway.
		if r.ToolsInFlight == 0 && len(r.Subagents) == 0 {
			r.WaitingFor, r.WaitingTool = "", ""
			return store.StateReady
		}
	}
	return r.State
}

// answered is the state once the person answered an MCP server's
// question: working again, unless what the session waits for is another
// dialog.
func answered(r *store.Record) store.State {
	if r.State != store.StateWaiting || r.WaitingTool != elicitationKey {
		return r.State
	}
	r.WaitingFor, r.WaitingTool = "", ""
	return store.StateWorking
}
