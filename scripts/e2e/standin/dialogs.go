package standin

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Directives for the dialogs and background work of newer Claude Code
// releases, steered like the ones in steer.go:
//
//	ASK:<question>     one AskUserQuestion tool_use: <question>, with header
//	                   "Choice" and two options, "Yes" and "No"
//	PLAN:<plan>        one ExitPlanMode tool_use presenting <plan>
//	BGAGENT:<seconds>  one Agent tool_use with run_in_background: a subagent
//	                   that works for that many seconds (its prompt is
//	                   SLOW:<seconds>) while the main turn ends at once
var (
	askDirective     = regexp.MustCompile(`\bASK:([^\r\n]+)`)
	planDirective    = regexp.MustCompile(`\bPLAN:([^\r\n]+)`)
	bgAgentDirective = regexp.MustCompile(`\bBGAGENT:([0-9]+(?:\.[0-9]+)?)`)
)

// dialogDirective reports whether text holds one of this file's directives.
func dialogDirective(text string) bool {
	return askDirective.MatchString(text) || planDirective.MatchString(text) || bgAgentDirective.MatchString(text)
}

// dialogDirectiveIn returns the tool call one of this file's directives
// in prompt asks for. ExitPlanMode and AskUserQuestion may be deferred
// tools in newer CLIs, which steer loads with ToolSearch first.
func dialogDirectiveIn(prompt string) (name, input, why string, ok bool) {
	if m := bgAgentDirective.FindStringSubmatch(prompt); m != nil {
		in, _ := json.Marshal(map[string]any{
			"description":       "e2e background subagent",
			"prompt":            "SLOW:" + m[1],
			"subagent_type":     "general-purpose",
			"run_in_background": true,
		})
		return "Agent", string(in), "BGAGENT directive", true
	}
	if m := askDirective.FindStringSubmatch(prompt); m != nil {
		in, _ := json.Marshal(map[string]any{"questions": []any{map[string]any{
			"question":    strings.TrimSpace(m[1]),
			"header":      "Choice",
			"multiSelect": false,
			"options": []any{
				map[string]string{"label": "Yes", "description": "Go ahead"},
				map[string]string{"label": "No", "description": "Leave it"},
			},
		}}})
		return "AskUserQuestion", string(in), "ASK directive", true
	}
	if m := planDirective.FindStringSubmatch(prompt); m != nil {
		in, _ := json.Marshal(map[string]string{"plan": strings.TrimSpace(m[1])})
		return "ExitPlanMode", string(in), "PLAN directive", true
	}
	return "", "", "", false
}

// InjectedTurnAnswer is Exchange.Answer for a turn Claude Code started by
// itself with a background task's result: a test sees there that the
// agent came back.
const InjectedTurnAnswer = "task notification"

// injectedTurn reports whether a user message is one Claude Code wrote
// itself: a background task's result comes back as a <task-notification>
// whose <summary> must not read as a compaction request.
func injectedTurn(text string) bool {
	return strings.Contains(text, "<task-notification>")
}
