// Package standin holds what the loopback stand-ins for other agents' model
// APIs share: how the newest user text steers an answer, and how a tool
// call's arguments are filled from the tool's own schema. Each wire format
// is a subpackage (chat: OpenAI Chat Completions, gemini: the Gemini API);
// the Anthropic one the Claude Code suite uses is scripts/e2e/standin.
//
// Steering, read from the newest user text of the conversation:
//
//	TOOL:<command>   one call of the agent's shell tool running <command>
//	ASK:<question>   one call of the agent's ask-the-user tool, if it offers one
//	SLOW:<seconds>   a text answer streamed slowly over that many seconds (for Esc)
//	ERROR:<status>   an API error with that HTTP status (4xx or 5xx)
//	(tool result)    a turn whose newest message is a tool result gets "Done."
//	anything else    a short text answer
//
// The directives are the Anthropic stand-in's, so a scenario reads the same
// whichever agent it drives.
package standin

import (
	"encoding/json"
	"regexp"
	"strconv"
	"time"
)

// Kind is what an answer is.
type Kind int

const (
	Text Kind = iota
	ToolCall
	Error
)

// Plan is the answer steering chose.
type Plan struct {
	Kind   Kind
	Text   string        // Text: the answer
	Slow   time.Duration // Text: spread the answer over this long
	Tool   string        // ToolCall: which tool
	Args   string        // ToolCall: its arguments, a JSON object
	Status int           // Error: the HTTP status
	Why    string        // for the log
}

// maxSlow caps a SLOW answer, so a typo cannot hang a test run.
const maxSlow = 120 * time.Second

var (
	toolDirective  = regexp.MustCompile(`TOOL:([^\r\n]+)`)
	askDirective   = regexp.MustCompile(`ASK:([^\r\n]+)`)
	slowDirective  = regexp.MustCompile(`SLOW:([0-9]+(?:\.[0-9]+)?)`)
	errorDirective = regexp.MustCompile(`ERROR:([45][0-9][0-9])`)
)

// Tool is one tool a request offers: its name and its parameters' JSON
// schema.
type Tool struct {
	Name   string
	Schema json.RawMessage
}

// Shell and question tools by the names the agents give them.
var (
	shellTools = []string{"run_shell_command", "bash", "shell", "Bash"}
	askTools   = []string{"ask_user", "ask_user_question", "question", "AskUserQuestion"}
)

// Steer chooses the answer to a conversation whose newest user text is
// prompt; afterTool says its newest message is a tool's result.
func Steer(prompt string, afterTool bool, tools []Tool) Plan {
	slow, isSlow := slowFrom(prompt)
	if afterTool {
		p := Plan{Kind: Text, Text: "Done.", Why: "tool result"}
		if isSlow {
			p.Slow, p.Why = slow, "tool result, SLOW directive"
		}
		return p
	}
	if m := errorDirective.FindStringSubmatch(prompt); m != nil {
		status, _ := strconv.Atoi(m[1])
		return Plan{Kind: Error, Status: status, Why: "ERROR directive"}
	}
	if m := toolDirective.FindStringSubmatch(prompt); m != nil {
		if t, ok := find(tools, shellTools); ok {
			return Plan{Kind: ToolCall, Tool: t.Name, Args: Args(t.Schema, map[string]any{"command": m[1]}), Why: "TOOL directive"}
		}
		return Plan{Kind: Text, Text: "No shell tool was offered.", Why: "TOOL directive without a shell tool"}
	}
	if m := askDirective.FindStringSubmatch(prompt); m != nil {
		if t, ok := find(tools, askTools); ok {
			return Plan{Kind: ToolCall, Tool: t.Name, Args: Args(t.Schema, askValues(m[1])), Why: "ASK directive"}
		}
		return Plan{Kind: Text, Text: "No question tool was offered.", Why: "ASK directive without a question tool"}
	}
	if isSlow {
		return Plan{Kind: Text, Text: slowText, Slow: slow, Why: "SLOW directive"}
	}
	return Plan{Kind: Text, Text: "Hello from the stand-in.", Why: "plain text"}
}

// askValues fills the ask tools' parameters as each agent names them:
// Copilot's ask_user takes a message, Gemini's and opencode's a list of
// questions.
func askValues(q string) map[string]any {
	return map[string]any{
		"question": q,
		"message":  q,
		// Gemini's free-text question needs no options; opencode's
		// question tool refuses one without them.
		"questions": []any{map[string]any{"question": q, "header": "Question", "type": "text",
			"options": []any{
				map[string]any{"label": "Blue", "description": "the colour blue"},
				map[string]any{"label": "Green", "description": "the colour green"},
			}}},
	}
}

// slowText is long enough to stream word by word over a few seconds.
const slowText = "This answer streams slowly, one word at a time, so that a person has time to press Escape while the agent is still working on it."

func slowFrom(text string) (time.Duration, bool) {
	m := slowDirective.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	s, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	return min(time.Duration(s*float64(time.Second)), maxSlow), true
}

func find(tools []Tool, names []string) (Tool, bool) {
	for _, n := range names {
		for _, t := range tools {
			if t.Name == n {
				return t, true
			}
		}
	}
	return Tool{}, false
}
