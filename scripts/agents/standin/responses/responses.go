// Package responses is a loopback stand-in for OpenAI's Responses API
// (POST /v1/responses, streamed as server-sent events), enough for Codex
// CLI to run real turns in the agents' end-to-end suite. What it answers
// is steered by the person's last prompt, so a test types what it needs:
//
//	run: <command>   a shell tool call running <command>, then "done"
//	ask: <command>   the same, asking to run outside the sandbox: Codex
//	                 shows its approval dialog (approval_policy on-request)
//	question: <text> Codex's request_user_input (Plan mode), asking <text>
//	slow             the answer comes after 30 s (time to press Esc)
//	fail             the request fails (HTTP 400: no retry)
//	context: <n>     the answer "ok", its usage reporting n input tokens
//	                 (most of them cached), so a test knows the context in use
//	anything else    the answer "ok"
package responses

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Server answers Responses API requests.
type Server struct {
	// Logf, when set, gets one line per request.
	Logf func(format string, args ...any)
	// Slow is how long a "slow" prompt waits before its answer.
	Slow time.Duration
	seq  atomic.Int64
}

// request is what the stand-in reads of a Responses API request.
type request struct {
	Input []json.RawMessage `json:"input"`
	Tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

// item is one input item, the fields the steering needs.
type item struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

func (s *Server) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// ServeHTTP answers POST .../responses; anything else is a 404, which a
// client treats as a feature it may not use.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		s.logf("%s %s: 404", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "decoding request: "+err.Error(), http.StatusBadRequest)
		return
	}
	prompt, afterTool := lastPrompt(req.Input)
	s.logf("POST %s: prompt %q, after a tool call %v", r.URL.Path, prompt, afterTool)
	switch {
	case afterTool:
		s.stream(w, r, message("done"))
	case strings.HasPrefix(prompt, "fail"):
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"stand-in: the request failed on purpose","type":"invalid_request_error","code":"stand_in_failure"}}`)
	case strings.HasPrefix(prompt, "run: "):
		s.stream(w, r, s.shellCall(req, strings.TrimPrefix(prompt, "run: "), false))
	case strings.HasPrefix(prompt, "ask: "):
		s.stream(w, r, s.shellCall(req, strings.TrimPrefix(prompt, "ask: "), true))
	case strings.HasPrefix(prompt, "question: "):
		s.stream(w, r, s.questionCall(strings.TrimPrefix(prompt, "question: ")))
	case strings.HasPrefix(prompt, "context: "):
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(prompt, "context: ")))
		if err != nil || n < 0 {
			http.Error(w, "context: wants a count of tokens", http.StatusBadRequest)
			return
		}
		s.streamUsage(w, r, message("ok"), n)
	case strings.HasPrefix(prompt, "slow"):
		select {
		case <-time.After(s.Slow):
			s.stream(w, r, message("ok, slowly"))
		case <-r.Context().Done():
		}
	default:
		s.stream(w, r, message("ok"))
	}
}

// lastPrompt returns the text of the last user message, and whether a
// tool's output came after it (the turn continues after a tool call).
func lastPrompt(input []json.RawMessage) (prompt string, afterTool bool) {
	for i := len(input) - 1; i >= 0; i-- {
		var it item
		if json.Unmarshal(input[i], &it) != nil {
			continue
		}
		switch {
		case strings.HasSuffix(it.Type, "_call_output"):
			if prompt == "" {
				afterTool = true
			}
		case it.Role == "user":
			return strings.TrimSpace(text(it.Content)), afterTool
		}
	}
	return "", afterTool
}

// text joins the text parts of a message's content (a string or a list
// of parts).
func text(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(content, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// message is an assistant message output item.
func message(s string) map[string]any {
	return map[string]any{
		"type": "message", "role": "assistant", "status": "completed",
		"content": []map[string]any{{"type": "output_text", "text": s, "annotations": []any{}}},
	}
}

// shellCall is a function call of the shell tool the request offers
// (exec_command, Codex's own), running command; escalate asks to run it
// outside the sandbox, which needs the person's approval.
func (s *Server) shellCall(req request, command string, escalate bool) map[string]any {
	name, args := "exec_command", map[string]any{"cmd": command, "login": false}
	for _, t := range req.Tools {
		if t.Name == "shell_command" {
			name, args = t.Name, map[string]any{"command": command}
		}
		if t.Name == "exec_command" {
			name, args = t.Name, map[string]any{"cmd": command, "login": false}
			break
		}
	}
	if escalate {
		args["sandbox_permissions"] = "require_escalated"
		args["justification"] = "May I run " + command + "?"
	}
	a, _ := json.Marshal(args)
	return map[string]any{
		"type": "function_call", "name": name, "arguments": string(a),
		"call_id": fmt.Sprintf("call_%d", s.seq.Add(1)), "status": "completed",
	}
}

// questionCall is a call of Codex's request_user_input tool asking
// question, with two choices.
func (s *Server) questionCall(question string) map[string]any {
	args, _ := json.Marshal(map[string]any{"questions": []map[string]any{{
		"id": "choice", "header": "Choice", "question": question,
		"options": []map[string]string{
			{"label": "Red (Recommended)", "description": "The warm one."},
			{"label": "Blue", "description": "The cool one."},
		},
	}}})
	return map[string]any{
		"type": "function_call", "name": "request_user_input", "arguments": string(args),
		"call_id": fmt.Sprintf("call_%d", s.seq.Add(1)), "status": "completed",
	}
}

// stream writes one response holding out as its only output item.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, out map[string]any) {
	s.streamUsage(w, r, out, 10)
}

// Limits are the account's usage windows every answer reports in the
// x-codex-primary-* (the 5-hour window) and x-codex-secondary-* (the
// weekly one) headers, as OpenAI's API does for a ChatGPT login.
var Limits = struct {
	PrimaryPercent, SecondaryPercent float64
	PrimaryMinutes, SecondaryMinutes int
	PrimaryReset, SecondaryReset     time.Duration // from the answer
}{12, 34, 300, 10080, 2 * time.Hour, 72 * time.Hour}

// streamUsage is stream with usage reporting input input tokens.
func (s *Server) streamUsage(w http.ResponseWriter, r *http.Request, out map[string]any, input int) {
	id := fmt.Sprintf("resp_%d", s.seq.Add(1))
	h := w.Header()
	now := time.Now()
	h.Set("x-codex-primary-used-percent", strconv.FormatFloat(Limits.PrimaryPercent, 'f', -1, 64))
	h.Set("x-codex-primary-window-minutes", strconv.Itoa(Limits.PrimaryMinutes))
	h.Set("x-codex-primary-reset-at", strconv.FormatInt(now.Add(Limits.PrimaryReset).Unix(), 10))
	h.Set("x-codex-secondary-used-percent", strconv.FormatFloat(Limits.SecondaryPercent, 'f', -1, 64))
	h.Set("x-codex-secondary-window-minutes", strconv.Itoa(Limits.SecondaryMinutes))
	h.Set("x-codex-secondary-reset-at", strconv.FormatInt(now.Add(Limits.SecondaryReset).Unix(), 10))
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	send := func(event string, data map[string]any) {
		data["type"] = event
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	resp := map[string]any{"id": id, "object": "response", "status": "in_progress", "output": []any{}}
	send("response.created", map[string]any{"response": resp})
	out["id"] = fmt.Sprintf("item_%d", s.seq.Add(1))
	send("response.output_item.added", map[string]any{"output_index": 0, "item": out})
	if out["type"] == "message" {
		t := out["content"].([]map[string]any)[0]["text"]
		send("response.output_text.delta", map[string]any{"output_index": 0, "content_index": 0, "item_id": out["id"], "delta": t})
	}
	send("response.output_item.done", map[string]any{"output_index": 0, "item": out})
	resp["status"] = "completed"
	resp["output"] = []any{out}
	cached := max(0, input-300)
	resp["usage"] = map[string]any{"input_tokens": input, "output_tokens": 5, "total_tokens": input + 5,
		"input_tokens_details": map[string]any{"cached_tokens": cached}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	send("response.completed", map[string]any{"response": resp})
}
