package standin

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// replyKind says what shape an answer has.
type replyKind int

const (
	replyText replyKind = iota
	replyToolUse
	replyError // an API error instead of an answer
)

// reply is the answer the stand-in chose for one request.
type reply struct {
	kind    replyKind
	text    string        // replyText
	tool    string        // replyToolUse: the tool's name
	input   string        // replyToolUse: the tool's input, JSON
	stream  time.Duration // how long the text takes to stream (SLOW)
	status  int           // replyError: the HTTP status
	compact bool          // a compaction summary: held back by CompactDelay
	context int           // the context in use to report (CONTEXT), 0: estimated
	why     string        // for the log
}

// The maximum a SLOW answer may take, so a typo cannot hang a test run.
const maxSlow = 5 * time.Minute

var (
	toolDirective  = regexp.MustCompile(`TOOL:([^\r\n]+)`)
	agentDirective = regexp.MustCompile(`AGENT:([^\r\n]+)`)
	slowDirective  = regexp.MustCompile(`SLOW:([0-9]+(?:\.[0-9]+)?)`)
	errorDirective = regexp.MustCompile(`ERROR:([45][0-9][0-9])`)
	writeDirective = regexp.MustCompile(`WRITE:([^\s]+)`)
	todoDirective  = regexp.MustCompile(`TODO:([^\r\n]+)`)
	taskDirective  = regexp.MustCompile(`TASK:([^\r\n]+)`)
	doneDirective  = regexp.MustCompile(`TASKDONE:([0-9]+)`)
)

// compactionMarkers are phrases of Claude Code's summarisation instruction.
// Any one of them in the newest user text marks a compaction request.
var compactionMarkers = []string{
	"create a detailed summary of the conversation",
	"summary of the conversation so far",
	"<summary>",
}

// steer chooses the answer to a request from its newest user message.
func steer(req request) (reply, error) {
	last, ok := lastUserMessage(req.Messages)
	if !ok {
		return reply{kind: replyText, text: "Hello.", why: "no user message"}, nil
	}
	bs, err := last.blocks()
	if err != nil {
		return reply{}, err
	}
	var texts []string
	toolResult := false
	for _, b := range bs {
		switch b.Type {
		case "tool_result":
			toolResult = true
		case "text":
			texts = append(texts, b.Text)
		}
	}
	text := strings.Join(texts, "\n")

	// A compaction request carries its instruction next to the last tool
	// result, so it is recognised first.
	for _, marker := range compactionMarkers {
		if strings.Contains(text, marker) && !injectedTurn(text) {
			return reply{kind: replyText, compact: true, why: "compaction", text: "<analysis>\nThe person exercised the HUD.\n</analysis>\n" +
				"<summary>\n1. Primary Request and Intent: an end-to-end test of the HUD.\n2. Pending Tasks: none.\n</summary>"}, nil
		}
	}
	if schema := req.OutputConfig.Format; schema.Type == "json_schema" {
		// Side requests that want JSON back (the session title).
		return reply{kind: replyText, text: schema.example(), why: "json_schema"}, nil
	}
	if injectedTurn(text) && newestDirective(texts) == "" {
		return reply{kind: replyText, text: "The background agent is done.", why: InjectedTurnAnswer}, nil
	}
	// Messages the person sent with no answer between them (after an
	// interrupt or an API error) arrive merged into one: the newest text
	// block that holds a directive is the prompt being answered.
	prompt := newestDirective(texts)
	// After a ToolSearch the stand-in asked for, the turn's prompt is
	// answered again, now with the tool it loaded.
	searched := toolResult && lastToolUse(req.Messages) == toolSearch
	if searched {
		prompt = turnPrompt(req.Messages)
	}
	if m := errorDirective.FindStringSubmatch(prompt); m != nil {
		status, _ := strconv.Atoi(m[1]) // the pattern admits only three digits
		return reply{kind: replyError, status: status, why: "ERROR directive"}, nil
	}
	// A directive in the text is a new prompt, even in a message that also
	// carries a tool result: after a denied permission the CLI sends the
	// rejection and the person's next prompt together.
	if name, input, why, ok := toolDirectiveIn(prompt); ok {
		switch {
		case req.hasTool(name):
			return reply{kind: replyToolUse, tool: name, input: input, why: why}, nil
		case searched:
			// A loaded tool is not added to the request's tools: the
			// ToolSearch result names it, and the CLI runs it.
			return reply{kind: replyToolUse, tool: name, input: input, why: why + ", loaded by ToolSearch"}, nil
		case !searched && req.hasTool(toolSearch):
			// Newer CLIs (2.1.330) defer rarely used tools: the model
			// loads one with ToolSearch before it can call it.
			in, _ := json.Marshal(map[string]any{"query": "select:" + name, "max_results": 1})
			return reply{kind: replyToolUse, tool: toolSearch, input: string(in), why: why + ", loading " + name + " with ToolSearch"}, nil
		}
	}
	if d, ok := slowFrom(prompt); ok {
		return reply{kind: replyText, stream: d, why: "SLOW directive",
			text: "This answer is slow on purpose: it streams one word at a time for the test."}, nil
	}
	if toolResult {
		// "SLOW:<s> TOOL:<command>" makes the answer after the tool slow
		// too: the prompt that started the turn says so.
		rep := reply{kind: replyText, text: "Done.", why: "tool_result"}
		if d, ok := slowFrom(turnPrompt(req.Messages)); ok {
			rep.stream, rep.why = d, "tool_result, SLOW directive"
			rep.text = "Done, slowly: the command ran and this answer takes its time."
		}
		return rep, nil
	}
	why := "plain text"
	if newestDirective(texts) != "" && len(req.Tools) > 0 {
		why = "plain text: a directive whose tool the CLI did not offer (tools: " + req.toolNames() + ")"
	}
	return reply{kind: replyText, text: "Hello from the stand-in.", why: why}, nil
}

// toolSearch is the tool newer CLIs load deferred tools with.
const toolSearch = "ToolSearch"

// toolDirectiveIn finds the directive in prompt that asks for a tool call,
// and returns the tool, its input and why (for the log).
func toolDirectiveIn(prompt string) (name, input, why string, ok bool) {
	if name, input, why, ok := dialogDirectiveIn(prompt); ok {
		return name, input, why, true
	}
	if m := agentDirective.FindStringSubmatch(prompt); m != nil {
		return "Agent", agentInput(strings.TrimSpace(m[1])), "AGENT directive", true
	}
	if m := writeDirective.FindStringSubmatch(prompt); m != nil {
		return "Write", writeInput(m[1]), "WRITE directive", true
	}
	if m := doneDirective.FindStringSubmatch(prompt); m != nil {
		in, _ := json.Marshal(map[string]string{"taskId": m[1], "status": "completed"})
		return "TaskUpdate", string(in), "TASKDONE directive", true
	}
	if m := taskDirective.FindStringSubmatch(prompt); m != nil {
		subject := strings.TrimSpace(m[1])
		in, _ := json.Marshal(map[string]string{"subject": subject, "description": subject, "activeForm": "Working on " + subject})
		return "TaskCreate", string(in), "TASK directive", true
	}
	if m := todoDirective.FindStringSubmatch(prompt); m != nil {
		return "TodoWrite", todoInput(m[1]), "TODO directive", true
	}
	if m := toolDirective.FindStringSubmatch(prompt); m != nil {
		return "Bash", bashInput(strings.TrimSpace(m[1])), "TOOL directive", true
	}
	return "", "", "", false
}

// lastToolUse is the tool the newest assistant message called ("" for none).
func lastToolUse(msgs []message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "assistant" {
			continue
		}
		bs, _ := msgs[i].blocks()
		name := ""
		for _, b := range bs {
			if b.Type == "tool_use" {
				name = b.Name
			}
		}
		return name
	}
	return ""
}

// slowFrom reads a SLOW:<seconds> directive, capped at maxSlow.
func slowFrom(text string) (time.Duration, bool) {
	m := slowDirective.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	secs, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false // the pattern admits only numbers ParseFloat reads
	}
	return min(time.Duration(secs*float64(time.Second)), maxSlow), true
}

// turnPrompt returns the text of the newest user message that carries text
// of its own (the person's prompt), skipping tool results.
func turnPrompt(msgs []message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		bs, err := msgs[i].blocks()
		if err != nil {
			continue
		}
		var texts []string
		for _, b := range bs {
			if b.Type == "text" {
				texts = append(texts, b.Text)
			}
		}
		if prompt := newestDirective(texts); prompt != "" {
			return prompt
		}
	}
	return ""
}

// newestDirective returns the last text that holds a directive, or "".
func newestDirective(texts []string) string {
	for i := len(texts) - 1; i >= 0; i-- {
		t := texts[i]
		if toolDirective.MatchString(t) || agentDirective.MatchString(t) || slowDirective.MatchString(t) ||
			errorDirective.MatchString(t) || writeDirective.MatchString(t) || todoDirective.MatchString(t) ||
			taskDirective.MatchString(t) || doneDirective.MatchString(t) || dialogDirective(t) {
			return t
		}
	}
	return ""
}

func lastUserMessage(msgs []message) (message, bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i], true
		}
	}
	return message{}, false
}

// bashInput is the Bash tool's input for a command.
func bashInput(command string) string {
	in, _ := json.Marshal(struct {
		Command     string `json:"command"`
		Description string `json:"description"`
	}{command, "Run the command the test asked for"})
	return string(in)
}

// agentInput is the Agent tool's input: a general-purpose subagent given
// prompt (which the stand-in steers in turn when the subagent asks).
func agentInput(prompt string) string {
	in, _ := json.Marshal(struct {
		Description  string `json:"description"`
		Prompt       string `json:"prompt"`
		SubagentType string `json:"subagent_type"`
	}{"e2e subagent", prompt, "general-purpose"})
	return string(in)
}

// writeInput is the Write tool's input: a small Go file at path (which the
// prompt gives absolute, as the tool requires).
func writeInput(path string) string {
	in, _ := json.Marshal(struct {
		FilePath string `json:"file_path"`
		Content  string `json:"content"`
	}{path, "package demo\n\n// Feature is what the end-to-end test wrote.\nfunc Feature() {}\n"})
	return string(in)
}

// todoInput is the TodoWrite tool's input for "a|b|c": the first item
// completed, the second in progress, the rest pending.
func todoInput(list string) string {
	type todo struct {
		Content    string `json:"content"`
		Status     string `json:"status"`
		ActiveForm string `json:"activeForm"`
	}
	var todos []todo
	for i, item := range strings.Split(list, "|") {
		status := "pending"
		switch i {
		case 0:
			status = "completed"
		case 1:
			status = "in_progress"
		}
		item = strings.TrimSpace(item)
		todos = append(todos, todo{Content: item, Status: status, ActiveForm: "Working on " + item})
	}
	in, _ := json.Marshal(struct {
		Todos []todo `json:"todos"`
	}{todos})
	return string(in)
}
