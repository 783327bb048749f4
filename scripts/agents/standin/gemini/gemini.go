// Package gemini is a loopback stand-in for the Gemini API
// (generativelanguage), what Gemini CLI talks to when GOOGLE_GEMINI_BASE_URL
// points here. Answers are steered by the newest user text, as package
// standin describes.
//
// It serves models/<model>:streamGenerateContent (server-sent events),
// :generateContent and :countTokens under /v1beta and /v1, and logs every
// path it does not know. A request that asks for JSON (the CLI's
// next-speaker check and model router) gets a value of its schema.
package gemini

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/capacitor-hud/hud/scripts/agents/standin"
)

// Server is the stand-in, an http.Handler. Use New.
type Server struct {
	logf func(format string, args ...any)
}

// New returns a Server that logs through logf.
func New(logf func(format string, args ...any)) *Server {
	return &Server{logf: logf}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// /v1beta/models/gemini-2.5-pro:streamGenerateContent
	model, method, ok := strings.Cut(r.URL.Path, ":")
	model = model[strings.LastIndex(model, "/")+1:]
	switch {
	case ok && r.Method == http.MethodPost && (method == "streamGenerateContent" || method == "generateContent"):
		s.generate(w, r, model, method == "streamGenerateContent")
	case ok && r.Method == http.MethodPost && method == "countTokens":
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, standin.MaxBody))
		standin.WriteJSON(w, map[string]int{"totalTokens": 10})
	default:
		s.logf("gemini standin: unknown %s %s", r.Method, r.URL.Path)
		writeError(w, http.StatusNotFound, "the stand-in does not serve "+r.URL.Path)
	}
}

// request is the part of a generateContent request the stand-in reads.
type request struct {
	Contents []content `json:"contents"`
	Tools    []struct {
		FunctionDeclarations []struct {
			Name                 string          `json:"name"`
			Parameters           json.RawMessage `json:"parameters"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType   string          `json:"responseMimeType"`
		ResponseSchema     json.RawMessage `json:"responseSchema"`
		ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
	} `json:"generationConfig"`
}

type content struct {
	Role  string `json:"role"`
	Parts []struct {
		Text             string          `json:"text"`
		FunctionResponse json.RawMessage `json:"functionResponse"`
	} `json:"parts"`
}

func (s *Server) generate(w http.ResponseWriter, r *http.Request, model string, streaming bool) {
	var req request
	if !standin.ReadJSON(w, r, &req, writeError) {
		return
	}
	plan := steer(req)
	s.logf("gemini standin: %s stream=%v → %s", model, streaming, plan.Why)
	if plan.Kind == standin.Error {
		writeError(w, plan.Status, fmt.Sprintf("the stand-in answers %d as asked", plan.Status))
		return
	}
	if !streaming {
		standin.WriteJSON(w, response(model, plan, plan.Text, true))
		return
	}
	ev, err := standin.NewSSE(w)
	if err != nil {
		s.logf("gemini standin: %v", err)
		return
	}
	if plan.Kind == standin.ToolCall {
		err = ev.Data(response(model, plan, "", true))
	} else {
		err = standin.Pieces(r.Context(), plan, func(piece string) error {
			return ev.Data(response(model, plan, piece, false))
		})
		if err == nil {
			err = ev.Data(response(model, plan, "", true))
		}
	}
	if err != nil {
		// The client went away (Esc does that): normal.
		s.logf("gemini standin: stream ended early: %v", err)
	}
}

// steer reads the conversation. A request for JSON is a side request and
// gets a value of its schema; so does one without tools, in plain text.
func steer(req request) standin.Plan {
	gc := req.GenerationConfig
	if gc.ResponseMimeType == "application/json" {
		schema := gc.ResponseJSONSchema
		if len(schema) == 0 {
			schema = gc.ResponseSchema
		}
		return standin.Plan{Kind: standin.Text, Text: standin.JSONExample(schema), Why: "JSON side request"}
	}
	var tools []standin.Tool
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			schema := f.ParametersJSONSchema
			if len(schema) == 0 {
				schema = f.Parameters
			}
			tools = append(tools, standin.Tool{Name: f.Name, Schema: schema})
		}
	}
	if len(tools) == 0 {
		return standin.Plan{Kind: standin.Text, Text: "Stand-in session", Why: "side request"}
	}
	prompt, afterTool := "", false
	if n := len(req.Contents); n > 0 {
		for _, p := range req.Contents[n-1].Parts {
			if len(p.FunctionResponse) > 0 {
				afterTool = true
			}
		}
	}
	// The newest user text that is not a tool result is the turn's prompt.
	for i := len(req.Contents) - 1; i >= 0 && prompt == ""; i-- {
		if req.Contents[i].Role != "user" {
			continue
		}
		for _, p := range req.Contents[i].Parts {
			prompt += p.Text
		}
	}
	return standin.Steer(prompt, afterTool, tools)
}

// response is one GenerateContentResponse: a piece of text, or on the last
// one the tool call or nothing, with the finish reason and usage.
func response(model string, p standin.Plan, text string, last bool) map[string]any {
	var parts []any
	if text != "" {
		parts = append(parts, map[string]any{"text": text})
	}
	if last && p.Kind == standin.ToolCall {
		var args map[string]any
		_ = json.Unmarshal([]byte(p.Args), &args)
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": p.Tool, "args": args}})
	}
	if parts == nil {
		parts = []any{map[string]any{"text": ""}}
	}
	cand := map[string]any{"index": 0, "content": map[string]any{"role": "model", "parts": parts}}
	out := map[string]any{"candidates": []any{cand}, "modelVersion": model}
	if last {
		cand["finishReason"] = "STOP"
		out["usageMetadata"] = map[string]int{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
	}
	return out
}

// writeError answers in Google's error shape, which the CLI's SDK parses.
func writeError(w http.ResponseWriter, status int, text string) {
	standin.WriteJSONStatus(w, status, map[string]any{
		"error": map[string]any{"code": status, "message": text, "status": statusName(status)},
	})
}

func statusName(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	}
	return "INTERNAL"
}
