package standin

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDialogDirectives(t *testing.T) {
	tools := []tool{{Name: "Bash"}, {Name: "Agent"}, {Name: "AskUserQuestion"}, {Name: "ExitPlanMode"}, {Name: "TaskCreate"}}
	user := func(text string) []message {
		b, _ := json.Marshal(text)
		return []message{{Role: "user", Content: b}}
	}
	cases := []struct {
		prompt, tool, input string // input: a fragment the tool input holds
	}{
		{"BGAGENT:12", "Agent", `"prompt":"SLOW:12"`},
		{"BGAGENT:12", "Agent", `"run_in_background":true`},
		{"ASK:Which database?", "AskUserQuestion", `"question":"Which database?"`},
		{"PLAN:Rename it", "ExitPlanMode", `"plan":"Rename it"`},
		{"TASK:ship it", "TaskCreate", `"subject":"ship it"`}, // not an ASK
	}
	for _, c := range cases {
		rep, err := steer(request{Messages: user(c.prompt), Tools: tools})
		if err != nil || rep.kind != replyToolUse || rep.tool != c.tool || !strings.Contains(rep.input, c.input) {
			t.Errorf("%s: %+v, %v; want %s with %s", c.prompt, rep, err, c.tool, c.input)
		}
	}
	// A background agent's result comes back as a <task-notification>
	// holding a <summary>: an answer, not a compaction request.
	rep, err := steer(request{Messages: user("<task-notification>\n<summary>Agent finished</summary>\n</task-notification>"), Tools: tools})
	if err != nil || rep.compact || rep.why != InjectedTurnAnswer {
		t.Errorf("task notification: %+v, %v", rep, err)
	}
}
