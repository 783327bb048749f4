package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

// TestContextOnEverySurface: a session's context comes from its
// transcript's newest answer, another's from what its status line was
// handed (recorded by `hud statusline`, 0600); `hud status` shows both in
// its column and its JSON, and the status line its own.
func TestContextOnEverySurface(t *testing.T) {
	h := severalSessions(t)
	transcript := filepath.Join(h.layout.Home, ".claude", "projects", "-home-me-code-web", "web-session.jsonl")
	rec := h.store.Sessions["web-session"]
	rec.TranscriptPath = transcript
	answer := `{"type":"assistant","isSidechain":false,"timestamp":"` + statusNow.Add(-10*time.Second).Format(time.RFC3339) +
		`","message":{"model":"claude-sonnet-4-5","role":"assistant","usage":{"input_tokens":4000,"cache_creation_input_tokens":0,"cache_read_input_tokens":170000,"output_tokens":9}}}`
	h.write(transcript, answer+"\n")

	stdin := `{"session_id":"api-session","model":{"id":"claude-opus-4-8"},"context_window":{"context_window_size":1000000,` +
		`"current_usage":{"input_tokens":10,"cache_creation_input_tokens":90,"cache_read_input_tokens":49900}},"rate_limits":null}`
	code, out, errOut := runWithStdin(t, h, stdin, "statusline")
	if code != 0 || out != "◆ waiting · ctx 5%\n" || errOut != "" {
		t.Errorf("statusline: exit %d, %q, %q", code, out, errOut)
	}
	info, err := os.Stat(h.layout.StatusLinePath("api-session"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("recorded status line: %v %v", info, err)
	}

	code, out, _ = h.run("status")
	if code != 0 || !strings.Contains(out, "ctx 5%   Bash: npm test") || !strings.Contains(out, `ctx 87%  "fix the login form"`) {
		t.Errorf("status: exit %d\n%s", code, out)
	}
	_, out, _ = h.run("status", "--json")
	var doc struct {
		Sessions []struct {
			SessionID string `json:"session_id"`
			Context   *struct {
				resolver.Context
				Share int `json:"percent"`
			} `json:"context"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]resolver.Context{
		"api-session": {Tokens: 50000, Window: 1000000, Model: "claude-opus-4-8", From: "statusline", WindowFrom: "statusline"},
		"web-session": {Tokens: 174000, Window: 200000, Model: "claude-sonnet-4-5", From: "transcript", WindowFrom: "model"},
	}
	for _, s := range doc.Sessions {
		w, ok := want[s.SessionID]
		if !ok {
			continue
		}
		if s.Context == nil || s.Context.Tokens != w.Tokens || s.Context.Window != w.Window || s.Context.Model != w.Model ||
			s.Context.From != w.From || s.Context.WindowFrom != w.WindowFrom || s.Context.Share != w.Percent() {
			t.Errorf("%s: context %+v, want %+v", s.SessionID, s.Context, w)
		}
		delete(want, s.SessionID)
	}
	if len(want) > 0 {
		t.Errorf("no context for %v:\n%s", want, out)
	}
}
