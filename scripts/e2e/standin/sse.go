package standin

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// sseWriter writes server-sent events and flushes each one, so the client
// sees it at once (a slow answer must look slow).
type sseWriter struct {
	w       http.ResponseWriter
	flusher http.Flusher
}

func (e sseWriter) send(event string, data any) error {
	payload, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", event, err)
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, payload); err != nil {
		return fmt.Errorf("writing %s: %w", event, err)
	}
	e.flusher.Flush()
	return nil
}

// pingEvery is how often a slow answer sends a ping between its words, as
// the real API keeps a quiet stream alive.
const pingEvery = time.Second

// stream sends msg as the real API streams it: message_start, one
// content_block_start / deltas / content_block_stop per block, message_delta
// with the stop_reason, message_stop. A SLOW reply spreads its text deltas
// over rep.stream; the client hanging up (an Esc interrupt) ends it early.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, msg apiMessage, rep reply) error {
	flusher, ok := w.(http.Flusher)
	if !ok {
		return errors.New("response writer cannot flush")
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("request-id", "req_standin")
	w.WriteHeader(http.StatusOK)
	ev := sseWriter{w: w, flusher: flusher}

	start := msg
	start.Content = []contentBlock{}
	start.StopReason = ""
	startUsage := start.Usage
	startUsage.OutputTokens = 1
	start.Usage = startUsage
	if err := ev.send("message_start", map[string]any{"type": "message_start", "message": startMessage(start)}); err != nil {
		return err
	}
	if err := ev.send("ping", map[string]string{"type": "ping"}); err != nil {
		return err
	}

	for i, b := range msg.Content {
		if err := s.streamBlock(ev, r, i, b, rep); err != nil {
			return err
		}
	}

	if err := ev.send("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": msg.StopReason, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": msg.Usage.OutputTokens},
	}); err != nil {
		return err
	}
	return ev.send("message_stop", map[string]string{"type": "message_stop"})
}

// startMessage is message_start's message: stop_reason is null until the
// message_delta says otherwise.
func startMessage(m apiMessage) map[string]any {
	return map[string]any{
		"id": m.ID, "type": m.Type, "role": m.Role, "model": m.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": m.Usage,
	}
}

func (s *Server) streamBlock(ev sseWriter, r *http.Request, index int, b contentBlock, rep reply) error {
	var opening contentBlock
	var deltas []map[string]any
	switch b.Type {
	case "tool_use":
		opening = contentBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: json.RawMessage(`{}`)}
		for _, part := range chunks(string(b.Input), 24) {
			deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": part})
		}
	case "text":
		empty := ""
		opening = contentBlock{Type: "text", Text: &empty}
		pieces := chunks(*b.Text, 16)
		if rep.stream > 0 {
			pieces = words(*b.Text)
		}
		for _, part := range pieces {
			deltas = append(deltas, map[string]any{"type": "text_delta", "text": part})
		}
	default:
		return fmt.Errorf("cannot stream a %q block", b.Type)
	}

	if err := ev.send("content_block_start", map[string]any{
		"type": "content_block_start", "index": index, "content_block": opening,
	}); err != nil {
		return err
	}
	// A slow answer spreads its deltas evenly over rep.stream.
	var gap time.Duration
	if rep.stream > 0 && len(deltas) > 0 {
		gap = rep.stream / time.Duration(len(deltas))
	}
	for _, d := range deltas {
		if gap > 0 {
			if err := sleepWithPings(ev, r, gap); err != nil {
				return err
			}
		}
		if err := ev.send("content_block_delta", map[string]any{
			"type": "content_block_delta", "index": index, "delta": d,
		}); err != nil {
			return err
		}
	}
	return ev.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
}

// sleepWithPings waits d, sending a ping each second, and gives up as soon
// as the client hangs up.
func sleepWithPings(ev sseWriter, r *http.Request, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil
		}
		select {
		case <-r.Context().Done():
			return fmt.Errorf("client hung up: %w", r.Context().Err())
		case <-time.After(min(left, pingEvery)):
		}
		if time.Until(deadline) > 0 {
			if err := ev.send("ping", map[string]string{"type": "ping"}); err != nil {
				return err
			}
		}
	}
}
