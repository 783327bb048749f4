package standin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// SSE writes server-sent "data:" events and flushes each one, so the agent
// sees it at once (a slow answer must look slow).
type SSE struct {
	w http.ResponseWriter
	f http.Flusher
}

// NewSSE starts an event stream on w.
func NewSSE(w http.ResponseWriter) (SSE, error) {
	f, ok := w.(http.Flusher)
	if !ok {
		return SSE{}, errors.New("response writer cannot flush")
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return SSE{w: w, f: f}, nil
}

// Data sends v as one JSON data event.
func (e SSE) Data(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding an event: %w", err)
	}
	return e.Raw(string(b))
}

// Raw sends one data event as is.
func (e SSE) Raw(data string) error {
	if _, err := fmt.Fprintf(e.w, "data: %s\n\n", data); err != nil {
		return fmt.Errorf("writing an event: %w", err)
	}
	e.f.Flush()
	return nil
}

// Pieces hands a text answer to send in pieces: a few large ones, or for a
// slow answer one word at a time spread over p.Slow. It stops as soon as
// ctx ends (the agent hung up: Esc).
func Pieces(ctx context.Context, p Plan, send func(string) error) error {
	var pieces []string
	if p.Slow > 0 {
		for _, w := range strings.SplitAfter(p.Text, " ") {
			if w != "" {
				pieces = append(pieces, w)
			}
		}
	} else {
		for t := p.Text; t != ""; {
			n := min(len(t), 16)
			for n < len(t) && t[n]&0xC0 == 0x80 {
				n++
			}
			pieces = append(pieces, t[:n])
			t = t[n:]
		}
	}
	var gap time.Duration
	if p.Slow > 0 && len(pieces) > 0 {
		gap = p.Slow / time.Duration(len(pieces))
	}
	for _, piece := range pieces {
		if gap > 0 {
			select {
			case <-ctx.Done():
				return fmt.Errorf("client hung up: %w", ctx.Err())
			case <-time.After(gap):
			}
		}
		if err := send(piece); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON answers v as JSON; a client that is gone is told nothing.
func WriteJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// WriteJSONStatus answers v as JSON with an HTTP status (an API error).
func WriteJSONStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// MaxBody bounds a request body: a whole conversation and every tool's
// schema, well under this.
const MaxBody = 32 << 20

// ReadJSON reads a request's JSON body into v; when it cannot, it answers
// 400 with writeError and returns false.
func ReadJSON(w http.ResponseWriter, r *http.Request, v any, writeError func(http.ResponseWriter, int, string)) bool {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return false
	}
	if err := json.Unmarshal(body, v); err != nil {
		writeError(w, http.StatusBadRequest, "request body is not JSON: "+err.Error())
		return false
	}
	return true
}
