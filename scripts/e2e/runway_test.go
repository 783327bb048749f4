package e2e

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/e2e/standin"
)

// envStatusLine: save the last status line input Claude handed in
// TestRunway in this directory (as claude-<release>-apikey.json), for
// resolver's tests of the parsing.
const envStatusLine = "HUD_E2E_STATUSLINE"

// TestRunway: two sessions on models with different windows, each turn
// reporting a known context in use (the stand-in's CONTEXT:<tokens>):
// after each turn `hud status --json` gives each session's share within
// one point of what the stand-in reported, over the window Claude itself
// gives its status line; and the status line's input is kept for the
// record, with whatever it says of the account's usage limits.
func TestRunway(t *testing.T) {
	r := newRig(t, "api", "web")
	r.install("--statusline")
	inputs := r.teeStatusLine()
	// The account's limits in every answer's headers, as the API sends
	// them to a subscription login.
	r.s.api.SetLimits(&standin.RateLimits{FiveHour: 0.42, SevenDay: 0.91,
		FiveHourReset: time.Now().Add(3 * time.Hour), SevenDayReset: time.Now().Add(96 * time.Hour)})
	t.Cleanup(func() { r.s.api.SetLimits(nil) })

	a := r.launch("api", r.dir("api"), "--model", "claude-sonnet-4-5")
	b := r.launch("web", r.dir("web"), "--model", "claude-opus-4-8")
	ida, idb := a.awaitPrompt(), b.awaitPrompt()
	steps := []struct {
		c      *claudeProc
		id     string
		tokens int
	}{
		{a, ida, 100_000},
		{b, idb, 60_000},
		{a, ida, 171_000},
		{b, idb, 150_000},
	}
	for _, st := range steps {
		at := st.c.submit(fmt.Sprintf("CONTEXT:%d how full is it", st.tokens))
		end := st.c.turnEnd(at, 30*time.Second)
		reported := r.reportedContext(at)
		if reported != st.tokens {
			t.Fatalf("%s: the stand-in reported %d tokens of context, want %d; log:\n%s", st.c.name, reported, st.tokens, r.s.apiLog.tail(10))
		}
		// The window is Claude's own, as it tells its status line: it
		// differs by model, and by release for one model (2.1.197 gives
		// claude-opus-4-8 200,000 tokens, 2.1.330 1,000,000).
		window := claudeWindow(t, inputs, st.id, reported, lineLimit)
		share := float64(reported) * 100 / float64(window)
		r.expect(fmt.Sprintf("%s: CONTEXT:%d → %.1f %%", st.c.name, st.tokens, share), end, turnDone, lineLimit, want{
			id:   st.id,
			desc: fmt.Sprintf("context %d of %d tokens, %.1f %% ±1", reported, window, share),
			ok: func(s hudStatus) bool {
				me, ok := s.session(st.id)
				return ok && me.Context != nil && me.Context.Tokens == reported && me.Context.Window == window &&
					math.Abs(float64(me.Context.Percent)-share) <= 1
			},
		})
	}
	if w1, w2 := claudeWindow(t, inputs, ida, 171_000, 0), claudeWindow(t, inputs, idb, 150_000, 0); w1 == w2 {
		t.Logf("both models have a window of %d tokens in Claude Code %s", w1, r.s.version)
	}
	r.keepStatusLineInput(inputs, ida)
}

// statusLineInput is what the suite reads of a status line's input.
type statusLineInput struct {
	SessionID     string          `json:"session_id"`
	RateLimits    json.RawMessage `json:"rate_limits"`
	ContextWindow struct {
		Size         int `json:"context_window_size"`
		CurrentUsage *struct {
			Input         int `json:"input_tokens"`
			CacheCreation int `json:"cache_creation_input_tokens"`
			CacheRead     int `json:"cache_read_input_tokens"`
		} `json:"current_usage"`
	} `json:"context_window"`
	raw []byte
}

// statusLineInputs reads every status line input saved in dir, oldest
// first.
func statusLineInputs(t *testing.T, dir string) []statusLineInput {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []statusLineInput
	for _, e := range entries { // named by the time they were written: in order
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		in := statusLineInput{raw: b}
		if json.Unmarshal(b, &in) == nil {
			out = append(out, in)
		}
	}
	return out
}

// claudeWindow is the window Claude gave the status line of session id
// with tokens of context in use, waiting up to wait for a refresh.
func claudeWindow(t *testing.T, dir, id string, tokens int, wait time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		for _, in := range statusLineInputs(t, dir) {
			u := in.ContextWindow.CurrentUsage
			if in.SessionID == id && u != nil && u.Input+u.CacheCreation+u.CacheRead == tokens {
				return in.ContextWindow.Size
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Claude's status line was never handed %d tokens of context for %s", tokens, id)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// reportedContext is the context the stand-in's newest main-conversation
// answer since at reported.
func (r *rig) reportedContext(since time.Time) int {
	n := 0
	for _, x := range r.s.api.Exchanges() {
		if x.At.After(since) && x.Context > 0 {
			n = x.Context
		}
	}
	return n
}

// teeStatusLine makes the status line command `hud install --statusline`
// wired save each input it is handed too, in a file of its own named by
// the time, and returns the directory.
func (r *rig) teeStatusLine() string {
	r.t.Helper()
	dir := filepath.Join(r.root, "statusline")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		r.t.Fatal(err)
	}
	settings := filepath.Join(r.home, ".claude", "settings.json")
	b, err := os.ReadFile(settings)
	if err != nil {
		r.t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		r.t.Fatal(err)
	}
	line, ok := doc["statusLine"].(map[string]any)
	if !ok {
		r.t.Fatalf("hud install --statusline wired no statusLine: %s", b)
	}
	line["command"] = "f=" + shellQuote(dir) + "/$(date +%s%N).json; cat >\"$f\"; " + line["command"].(string) + " <\"$f\""
	writeJSON(r.t, settings, doc)
	return dir
}

// keepStatusLineInput logs what the status line was last handed of the
// account's limits, and saves session id's newest input where
// HUD_E2E_STATUSLINE says.
func (r *rig) keepStatusLineInput(dir, id string) {
	r.t.Helper()
	var last *statusLineInput
	for _, in := range statusLineInputs(r.t, dir) {
		if in.SessionID == id {
			last = &in
		}
	}
	if last == nil {
		r.t.Fatalf("no status line input of %s was saved", id)
	}
	r.t.Logf("Claude Code %s, API-key login: the status line's rate_limits: %s", r.s.version, cmp.Or(string(last.RateLimits), "(absent)"))
	if out := os.Getenv(envStatusLine); out != "" {
		name := filepath.Join(out, "claude-"+r.s.version+"-apikey.json")
		if err := os.WriteFile(name, last.raw, 0o644); err != nil {
			r.t.Error(err)
		}
	}
}
