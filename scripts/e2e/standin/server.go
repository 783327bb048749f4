package standin

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// maxBody bounds a request body; Claude Code's requests carry the whole
// conversation and every tool's schema, well under this.
const maxBody = 32 << 20

// Server is the stand-in API, an http.Handler. The zero value is not ready:
// use New.
type Server struct {
	// CompactDelay holds a compaction summary back, so the HUD's compacting
	// state lasts long enough for a watcher to see it.
	CompactDelay time.Duration
	// DumpDir, when set, receives every /v1/messages request body as
	// <n>.json: how to see what a new CLI version sends.
	DumpDir string

	logf   func(format string, args ...any)
	limits atomic.Pointer[RateLimits] // SetLimits
	ids    atomic.Int64
	dumps  atomic.Int64
	mu     sync.Mutex
	ended  time.Time // when the last streamed answer sent message_stop
	log    []Exchange
}

// Exchange is one request the stand-in answered, for the test's failure
// reports.
type Exchange struct {
	At     time.Time
	Path   string
	Model  string
	Stream bool
	Answer string // what steer chose and why
	// Context is the context in use the answer reported (input, cache
	// creation and cache read tokens) as a CONTEXT directive asked; 0
	// for any other answer.
	Context int
}

// New returns a Server that logs through logf.
func New(logf func(format string, args ...any)) *Server {
	return &Server{logf: logf}
}

// LastAnswerEnd is when the most recent streamed answer of the main
// conversation (a request that offers tools, unlike the CLI's side requests
// for a title) finished: its message_stop was flushed. A test measures the
// HUD's "ready" from there.
func (s *Server) LastAnswerEnd() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}

// Exchanges returns the requests answered so far, oldest first.
func (s *Server) Exchanges() []Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Exchange(nil), s.log...)
}

func (s *Server) record(x Exchange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, x)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.countTokens(w, r)
	case r.Method == http.MethodHead || (r.Method == http.MethodGet && r.URL.Path == "/"):
		// Connectivity probes.
		w.WriteHeader(http.StatusOK)
	default:
		// Anything else the CLI asks for at startup is optional to it; a
		// real API error keeps it on its normal path. Logged, so a new
		// CLI version's new call shows up in the test output.
		s.logf("standin: unknown %s %s", r.Method, r.URL.Path)
		s.record(Exchange{At: time.Now(), Path: r.Method + " " + r.URL.Path, Answer: "404"})
		writeError(w, http.StatusNotFound, "not_found_error", "the stand-in does not serve "+r.URL.Path)
	}
}

func (s *Server) countTokens(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	s.record(Exchange{At: time.Now(), Path: r.URL.Path, Answer: "count"})
	writeJSON(w, map[string]int{"input_tokens": estimateTokens(len(body))})
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	if s.DumpDir != "" {
		name := filepath.Join(s.DumpDir, fmt.Sprintf("%04d.json", s.dumps.Add(1)))
		if err := os.WriteFile(name, body, 0o600); err != nil {
			s.logf("standin: dumping request: %v", err)
		}
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		s.logf("standin: bad request body: %v", err)
		writeError(w, http.StatusBadRequest, "invalid_request_error", "request body is not JSON: "+err.Error())
		return
	}
	rep, err := steer(req)
	if err != nil {
		s.logf("standin: %v", err)
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	rep.context = contextTokens(req)
	msg := s.newMessage(req, rep, len(body))
	reported := 0
	if rep.kind != replyError && rep.context > 0 {
		reported = msg.Usage.InputTokens + msg.Usage.CacheCreationInputTokens + msg.Usage.CacheReadInputTokens
	}
	s.record(Exchange{At: time.Now(), Path: r.URL.Path, Model: req.Model, Stream: req.Stream, Answer: rep.why, Context: reported})
	s.logf("standin: %s stream=%v tools=%d system=%q → %s", req.Model, req.Stream, len(req.Tools), clip(req.systemText(), 60), rep.why)

	if rep.kind == replyError {
		writeError(w, rep.status, errorType(rep.status), fmt.Sprintf("the stand-in answers %d as asked", rep.status))
		return
	}
	if rep.compact && s.CompactDelay > 0 {
		select {
		case <-time.After(s.CompactDelay):
		case <-r.Context().Done():
			return
		}
	}
	setRateLimitHeaders(w.Header(), s.limits.Load())
	if !req.Stream {
		writeJSON(w, msg)
		return
	}
	if err := s.stream(w, r, msg, rep); err != nil {
		// The client went away (an Esc interrupt does that): normal.
		s.logf("standin: stream ended early: %v", err)
		return
	}
	if len(req.Tools) > 0 {
		s.mu.Lock()
		s.ended = time.Now()
		s.mu.Unlock()
	}
}

// errorType is the API's error type for an HTTP status.
func errorType(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

// estimateTokens is the usual four bytes per token: the CLI only shows it.
func estimateTokens(n int) int { return max(1, n/4) }

// newMessage builds the complete answer; stream sends the same thing in
// pieces.
func (s *Server) newMessage(req request, rep reply, bodyLen int) apiMessage {
	id := s.ids.Add(1)
	msg := apiMessage{
		ID:    fmt.Sprintf("msg_standin_%06d", id),
		Type:  "message",
		Role:  "assistant",
		Model: req.Model,
		Usage: usage{InputTokens: estimateTokens(bodyLen), OutputTokens: 1},
	}
	switch rep.kind {
	case replyToolUse:
		msg.Content = []contentBlock{{
			Type:  "tool_use",
			ID:    fmt.Sprintf("toolu_standin_%06d", id),
			Name:  rep.tool,
			Input: json.RawMessage(rep.input),
		}}
		msg.StopReason = "tool_use"
	default:
		msg.Content = []contentBlock{{Type: "text", Text: &rep.text}}
		msg.StopReason = "end_turn"
	}
	msg.Usage.OutputTokens = estimateTokens(len(rep.text) + len(rep.input))
	if rep.context > 0 {
		out := msg.Usage.OutputTokens
		msg.Usage = contextUsage(rep.context)
		msg.Usage.OutputTokens = out
	}
	return msg
}

// apiMessage is a Messages API response object.
type apiMessage struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Model        string         `json:"model"`
	Content      []contentBlock `json:"content"`
	StopReason   string         `json:"stop_reason"`
	StopSequence *string        `json:"stop_sequence"`
	Usage        usage          `json:"usage"`
}

type contentBlock struct {
	Type  string          `json:"type"`
	Text  *string         `json:"text,omitempty"` // a pointer: text blocks start with "" in a stream
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

type usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_standin")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		// Nothing to tell a client that is gone.
		return
	}
}

// writeError answers in the API's error shape, which the CLI's SDK parses.
func writeError(w http.ResponseWriter, status int, kind, text string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	body, _ := json.Marshal(map[string]any{
		"type":  "error",
		"error": map[string]string{"type": kind, "message": text},
	})
	_, _ = w.Write(body)
}

// chunks splits s into pieces of about n bytes on rune boundaries, the way
// the API sends text: several deltas per answer.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut < len(s) && !isRuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// words splits text into words that keep their trailing space, for slow
// streaming one word at a time.
func words(text string) []string {
	fields := strings.SplitAfter(text, " ")
	out := fields[:0]
	for _, f := range fields {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// clip shortens s to at most n bytes for a log line.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
