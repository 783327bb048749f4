package hook

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// describeDialog says what a waiting session needs, in the person's
// words: the question Claude asks (its header and text), "plan approval"
// for a plan, else what the tool call is about.
func describeDialog(name string, input json.RawMessage, cwd string) string {
	switch name {
	case answer.ExitPlanMode:
		return "plan approval"
	case answer.AskUserQuestion:
		if q := questionText(input); q != "" {
			return q
		}
	}
	return describeTool(name, input, cwd)
}

// questionText is the first question of an AskUserQuestion call as
// "Header: question", with how many more follow.
func questionText(input json.RawMessage) string {
	qs := answer.Questions(input)
	if len(qs) == 0 {
		return ""
	}
	q := qs[0]
	more := ""
	if n := len(qs) - 1; n > 0 {
		more = " (+" + strconv.Itoa(n) + " more)"
	}
	text := oneLine(q.Question, maxWaitingFor)
	if h := oneLine(q.Header, 24); h != "" && text != "" {
		text = h + ": " + text
	} else if text == "" {
		text = h
	}
	if text == "" {
		return ""
	}
	return truncateRunes(text, maxWaitingFor-utf8.RuneCountInString(more)) + more
}

// elicitationText is an MCP server's question: "server: message".
func elicitationText(server, message string) string {
	message = oneLine(message, maxWaitingFor)
	server = oneLine(server, 24)
	switch {
	case server == "":
		return message
	case message == "":
		return server + ": a question"
	}
	return truncateRunes(server+": "+message, maxWaitingFor)
}

// fingerprintInput is the part of a tool call's input that names the call
// in every event about it. Claude adds the person's answers to an
// AskUserQuestion's input in its PostToolUse, so only the questions count.
func fingerprintInput(name string, input json.RawMessage) json.RawMessage {
	if name != answer.AskUserQuestion {
		return input
	}
	var questions json.RawMessage
	if jsonfields.Decode(input, jsonfields.Raw("questions", &questions)) != nil || len(questions) == 0 {
		return input
	}
	return questions
}
