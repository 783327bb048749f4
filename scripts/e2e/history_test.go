package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"time"
)

// history is `hud history --json`: the wait ledger folded over a period.
type history struct {
	From     time.Time        `json:"from"`
	To       time.Time        `json:"to"`
	Sessions []historySession `json:"sessions"`
	raw      []byte
}

type historySession struct {
	Key   string        `json:"key"`
	Name  string        `json:"name"`
	Spans []historySpan `json:"spans"`
	Waits []historyWait `json:"waits"`
}

type historySpan struct {
	From  time.Time `json:"from"`
	To    time.Time `json:"to"`
	State string    `json:"state"`
}

type historyWait struct {
	From     time.Time `json:"from"`
	To       time.Time `json:"to"`
	For      string    `json:"for"`
	How      string    `json:"how"`
	Choice   string    `json:"choice"`
	Response float64   `json:"response_s"`
}

// history runs `hud history --json --since since` with the rig's HOME.
func (r *rig) history(since time.Duration) (history, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	secs := int(math.Ceil(since.Seconds()))
	cmd := exec.CommandContext(ctx, r.s.hud, "history", "--json", "--since", fmt.Sprintf("%ds", secs))
	cmd.Env = r.baseEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	h := history{raw: out}
	if err != nil {
		return h, fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(out, &h); err != nil {
		return h, fmt.Errorf("hud history --json printed no JSON object: %w: %s", err, clip(string(out), 300))
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		return h, fmt.Errorf("hud history --json: %s", s)
	}
	return h, nil
}

// session is the timeline of key ("" and false when the ledger has none).
func (h history) session(key string) (historySession, bool) {
	for _, s := range h.Sessions {
		if s.Key == key {
			return s, true
		}
	}
	return historySession{}, false
}

// statesDuring lists the states the ledger says s showed at some moment
// of [from, to], "absent" among them when part of it is in no span.
func (s historySession) statesDuring(from, to time.Time) []string {
	var out []string
	covered := from
	for _, sp := range s.Spans {
		if !sp.To.After(from) || sp.From.After(to) {
			continue
		}
		out = appendNew(out, sp.State)
		if sp.From.After(covered) {
			out = append(out, "absent")
		}
		if sp.To.After(covered) {
			covered = sp.To
		}
	}
	if !covered.After(to) {
		out = append(out, "absent")
	}
	return out
}

// timeline is s's spans as one line each, for a failure report.
func (s historySession) timeline(since time.Time) string {
	var b strings.Builder
	for _, sp := range s.Spans {
		fmt.Fprintf(&b, "  %+8.3f s … %+8.3f s  %s\n", sp.From.Sub(since).Seconds(), sp.To.Sub(since).Seconds(), sp.State)
	}
	for _, w := range s.Waits {
		fmt.Fprintf(&b, "  wait %+8.3f s … %+8.3f s  %q %s %q %.3f s\n", w.From.Sub(since).Seconds(), w.To.Sub(since).Seconds(),
			w.For, w.How, w.Choice, w.Response)
	}
	return b.String()
}
