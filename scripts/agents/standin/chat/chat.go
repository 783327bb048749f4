// Package chat is a loopback stand-in for the OpenAI Chat Completions API,
// streaming and not: what Copilot CLI (COPILOT_PROVIDER_BASE_URL) and
// opencode (an OpenAI-compatible provider's baseURL) talk to. Answers are
// steered by the newest user text, as package standin describes.
//
// It serves POST /chat/completions and GET /models, each also under /v1,
// and logs every path it does not know.
package chat

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/capacitor-hud/hud/scripts/agents/standin"
)

// Model is the one model the stand-in lists.
const Model = "standin-chat"

// Server is the stand-in, an http.Handler. Use New.
type Server struct {
	logf func(format string, args ...any)
	ids  atomic.Int64
}

// New returns a Server that logs through logf.
func New(logf func(format string, args ...any)) *Server {
	return &Server{logf: logf}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/v1")
	switch {
	case r.Method == http.MethodPost && path == "/chat/completions":
		s.completions(w, r)
	case r.Method == http.MethodGet && path == "/models":
		standin.WriteJSON(w, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": Model, "object": "model", "created": 0, "owned_by": "standin"},
		}})
	default:
		s.logf("chat standin: unknown %s %s", r.Method, r.URL.Path)
		writeError(w, http.StatusNotFound, "the stand-in does not serve "+r.URL.Path)
	}
}

// request is the part of a Chat Completions request the stand-in reads.
type request struct {
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
	Tools    []struct {
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or a list of parts
}

// text is a message's text: the content string, or its text parts joined.
func (m message) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func (s *Server) completions(w http.ResponseWriter, r *http.Request) {
	var req request
	if !standin.ReadJSON(w, r, &req, writeError) {
		return
	}
	plan := s.steer(req)
	s.logf("chat standin: %s stream=%v tools=%d → %s", req.Model, req.Stream, len(req.Tools), plan.Why)
	if plan.Kind == standin.Error {
		writeError(w, plan.Status, fmt.Sprintf("the stand-in answers %d as asked", plan.Status))
		return
	}
	id := fmt.Sprintf("chatcmpl-standin-%06d", s.ids.Add(1))
	if !req.Stream {
		standin.WriteJSON(w, completion(id, req.Model, plan))
		return
	}
	if err := stream(w, r, id, req.Model, plan); err != nil {
		// The client went away (Esc does that): normal.
		s.logf("chat standin: stream ended early: %v", err)
	}
}

// steer reads the conversation: requests without tools are the agent's side
// requests (a title) and get plain text.
func (s *Server) steer(req request) standin.Plan {
	if len(req.Tools) == 0 {
		return standin.Plan{Kind: standin.Text, Text: "Stand-in session", Why: "side request"}
	}
	var tools []standin.Tool
	for _, t := range req.Tools {
		tools = append(tools, standin.Tool{Name: t.Function.Name, Schema: t.Function.Parameters})
	}
	prompt := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			prompt = req.Messages[i].text()
			break
		}
	}
	afterTool := len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == "tool"
	return standin.Steer(prompt, afterTool, tools)
}

func completion(id, model string, p standin.Plan) map[string]any {
	msg := map[string]any{"role": "assistant", "content": p.Text}
	finish := "stop"
	if p.Kind == standin.ToolCall {
		msg["content"] = nil
		msg["tool_calls"] = []any{toolCall(id, p)}
		finish = "tool_calls"
	}
	return map[string]any{
		"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]int{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	}
}

func toolCall(id string, p standin.Plan) map[string]any {
	return map[string]any{
		"index": 0, "id": "call_" + strings.TrimPrefix(id, "chatcmpl-"), "type": "function",
		"function": map[string]string{"name": p.Tool, "arguments": p.Args},
	}
}

// stream sends the answer as chat.completion.chunk events: the role, the
// text in pieces (one word at a time over p.Slow for a slow answer) or the
// tool call, the finish reason with usage, then [DONE].
func stream(w http.ResponseWriter, r *http.Request, id, model string, p standin.Plan) error {
	ev, err := standin.NewSSE(w)
	if err != nil {
		return err
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	if err := ev.Data(chunk(map[string]any{"role": "assistant", "content": ""}, nil)); err != nil {
		return err
	}
	finish := "stop"
	if p.Kind == standin.ToolCall {
		finish = "tool_calls"
		if err := ev.Data(chunk(map[string]any{"tool_calls": []any{toolCall(id, p)}}, nil)); err != nil {
			return err
		}
	} else {
		err := standin.Pieces(r.Context(), p, func(piece string) error {
			return ev.Data(chunk(map[string]any{"content": piece}, nil))
		})
		if err != nil {
			return err
		}
	}
	last := chunk(map[string]any{}, finish)
	last["usage"] = map[string]int{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if err := ev.Data(last); err != nil {
		return err
	}
	return ev.Raw("[DONE]")
}

// writeError answers in the API's error shape, which the agents' SDKs parse.
func writeError(w http.ResponseWriter, status int, text string) {
	standin.WriteJSONStatus(w, status, map[string]any{
		"error": map[string]any{"message": text, "type": "standin_error", "code": status},
	})
}
