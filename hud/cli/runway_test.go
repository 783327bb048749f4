package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
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

// TestAccountUsage: the limits a status line was handed show under the
// sessions in `hud status` and in its JSON's accounts, by config
// directory; a config directory nothing is known of says so, never a
// guess.
func TestAccountUsage(t *testing.T) {
	h := severalSessions(t)
	resets := statusNow.Add(2*time.Hour + 5*time.Minute).Unix()
	stdin := `{"session_id":"api-session","rate_limits":{"five_hour":{"used_percentage":42,"resets_at":` +
		strconv.FormatInt(resets, 10) + `},"seven_day":{"used_percentage":91,"resets_at":` + strconv.FormatInt(resets+3*86400, 10) + `}}}`
	if code, _, _ := runWithStdin(t, h, stdin, "statusline"); code != 0 {
		t.Fatalf("statusline: exit %d", code)
	}
	work := filepath.Join(h.layout.Home, ".claude-work")
	h.write(h.layout.ConfigDirsPath(), `{"version":1,"config_dirs":["`+work+`"]}`)

	_, out, _ := h.run("status")
	for _, line := range []string{
		"Usage ~/.claude: 5h 42% (resets in 2h 5m) · week 91% (resets in 3d 2h) · learnt now",
		"Usage ~/.claude-work: usage unknown",
	} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("no %q in:\n%s", line, out)
		}
	}
	_, out, _ = h.run("status", "--json")
	var doc struct {
		Accounts []struct {
			ConfigDir string `json:"config_dir"`
			FiveHour  *struct {
				UsedPercent float64   `json:"used_percentage"`
				ResetsAt    time.Time `json:"resets_at"`
			} `json:"five_hour"`
			SevenDay *struct {
				UsedPercent float64 `json:"used_percentage"`
			} `json:"seven_day"`
			At *time.Time `json:"at"`
		} `json:"accounts"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Accounts) != 2 {
		t.Fatalf("accounts: %s", out)
	}
	a, w := doc.Accounts[0], doc.Accounts[1]
	if a.ConfigDir != filepath.Join(h.layout.Home, ".claude") || a.FiveHour == nil || a.FiveHour.UsedPercent != 42 ||
		a.FiveHour.ResetsAt.Unix() != resets || a.SevenDay == nil || a.SevenDay.UsedPercent != 91 || a.At == nil || !a.At.Equal(statusNow) {
		t.Errorf("~/.claude: %+v\n%s", a, out)
	}
	if w.ConfigDir != work || w.FiveHour != nil || w.SevenDay != nil || w.At != nil {
		t.Errorf("~/.claude-work: %+v", w)
	}
}
