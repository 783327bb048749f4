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
	askDirective     = regexp.MustCompile(`ASK:([^\r\n]+)`)
	planDirective    = regexp.MustCompile(`PLAN:([^\r\n]+)`)
	bgAgentDirective = regexp.MustCompile(`BGAGENT:([0-9]+(?:\.[0-9]+)?)`)
)

// dialogDirective reports whether text holds one of this file's directives.
func dialogDirective(text string) bool {
	return askDirective.MatchString(text) || planDirective.MatchString(text) || bgAgentDirective.MatchString(text)
}

// steerDialog answers prompt with one of this file's tool calls, when it
// holds a directive whose tool the CLI offered.
func steerDialog(req request, prompt string) (reply, bool) {
	if m := bgAgentDirective.FindStringSubmatch(prompt); m != nil && req.hasTool("Agent") {
		in, _ := json.Marshal(map[string]any{
			"description":       "e2e background subagent",
			"prompt":            "SLOW:" + m[1],
			"subagent_type":     "general-purpose",
			"run_in_background": true,
		})
		return reply{kind: replyToolUse, tool: "Agent", input: string(in), why: "BGAGENT directive"}, true
	}
	if m := askDirective.FindStringSubmatch(prompt); m != nil && req.hasTool("AskUserQuestion") {
		in, _ := json.Marshal(map[string]any{"questions": []any{map[string]any{
			"question":    strings.TrimSpace(m[1]),
			"header":      "Choice",
			"multiSelect": false,
			"options": []any{
				map[string]string{"label": "Yes", "description": "Go ahead"},
				map[string]string{"label": "No", "description": "Leave it"},
			},
		}}})
		return reply{kind: replyToolUse, tool: "AskUserQuestion", input: string(in), why: "ASK directive"}, true
	}
	// Newer CLIs offer ExitPlanMode as a deferred tool (named to ToolSearch,
	// its schema loaded on demand); calling it by name still works.
	if m := planDirective.FindStringSubmatch(prompt); m != nil && (req.hasTool("ExitPlanMode") || req.hasTool("ToolSearch")) {
		in, _ := json.Marshal(map[string]string{"plan": strings.TrimSpace(m[1])})
		return reply{kind: replyToolUse, tool: "ExitPlanMode", input: string(in), why: "PLAN directive"}, true
	}
	return reply{}, false
}

// injectedTurn reports whether a user message is one Claude Code wrote
// itself: a background task's result comes back as a <task-notification>
// whose <summary> must not read as a compaction request.
func injectedTurn(text string) bool {
	return strings.Contains(text, "<task-notification>")
}
