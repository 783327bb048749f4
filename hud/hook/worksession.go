package hook

import (
	"encoding/json"
	"errors"
	"os"

	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// trackWorkSession keeps the project's timed work session current.
// Without a session, which is nearly always, it costs the project lookup
// and one stat. With one, it counts the time since the last event, turns
// long Task runs into pauses and sets the 40/60/90 flags; the tray reads
// the flags and tells the person.
//
// With strict = true, a prompt sent while the session is timed out is
// blocked until the person resumes it.
func trackWorkSession(ctx *Context) error {
	ev := ctx.Event
	// The project is the record's, as for every follow-up: the hook
	// decided it once, honouring CLAUDE_PROJECT_DIR, so a .git of someone
	// else's in a parent directory (/tmp) never picks the file read here.
	rec := ctx.After
	if rec == nil {
		rec = ctx.Before
	}
	if rec == nil || rec.Project() == "" {
		return nil
	}
	project := rec.Project()
	// Only a regular file is a work session: a link, a FIFO or a device
	// a repository ships under that name is not hud's, and not read.
	if fi, err := os.Lstat(worksession.Path(project)); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	set := ctx.Config().WorkSession
	act := workActivity(ctx)
	var timedOut bool
	var task string
	err := worksession.Files{Layout: ctx.Layout}.Update(project, func(s *worksession.State) error {
		worksession.Observe(s, ctx.Now, act, set)
		timedOut, task = s.TimedOut(), s.Task
		return nil
	})
	if errors.Is(err, worksession.ErrNoSession) {
		return nil // stopped meanwhile
	}
	if err != nil {
		return err
	}
	if timedOut && set.Strict && ev.HookEventName == EventUserPromptSubmit {
		ctx.Block(worksession.TimeoutMessage(task, set.TimeoutAt))
	}
	return nil
}

// workActivity is what the event means for the session's timing.
func workActivity(ctx *Context) worksession.Activity {
	ev := ctx.Event
	var act worksession.Activity
	switch ev.HookEventName {
	case EventUserPromptSubmit:
		act.TurnBoundary = true
	case EventStop:
		act.TurnBoundary = ctx.MainTurnEnded()
	case EventPreToolUse:
		if isTaskTool(ev.ToolName) && ev.AgentID == "" {
			act.TaskStarted = "Task agent: " + taskDescription(ev.ToolInput)
		}
	case EventPostToolUse, EventPostToolUseFailure:
		act.TaskEnded = isTaskTool(ev.ToolName) && ev.AgentID == ""
	}
	return act
}

// isTaskTool recognises the subagent tool: "Task", renamed "Agent" in
// later Claude Code versions.
func isTaskTool(name string) bool { return name == "Task" || name == "Agent" }

// taskDescription is the Task call's short description, else its agent
// type.
func taskDescription(input json.RawMessage) string {
	var description, subagentType string
	_ = jsonfields.Decode(input, jsonfields.String("description", &description), jsonfields.String("subagent_type", &subagentType))
	switch {
	case description != "":
		return description
	case subagentType != "":
		return subagentType
	}
	return "subagent"
}
