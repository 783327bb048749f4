package codex

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// tokenCountLine is a token_count event as Codex CLI 0.169.0 writes it to
// its rollout (scripts/agents TestCodexRunway, the stand-in reporting
// 50,000 input tokens and its rate-limit headers).
const tokenCountLine = `{"timestamp":"2026-11-26T14:44:15.627Z","ordinal":12,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":50000,"cached_input_tokens":49700,"cache_write_input_tokens":0,"output_tokens":5,"reasoning_output_tokens":0,"total_tokens":50005},"last_token_usage":{"input_tokens":50000,"cached_input_tokens":49700,"cache_write_input_tokens":0,"output_tokens":5,"reasoning_output_tokens":0,"total_tokens":50005},"last_usage_includes_reasoning":false,"model_context_window":258400},"rate_limits":{"limit_id":"codex","limit_name":null,"primary":{"used_percent":12.0,"window_minutes":300,"resets_at":1795711455},"secondary":{"used_percent":34.0,"window_minutes":10080,"resets_at":1795963455},"credits":null,"individual_limit":null,"spend_control_reached":null,"plan_type":null,"rate_limit_reached_type":null}}}`

func TestRunway(t *testing.T) {
	at := time.Date(2026, 11, 26, 14, 44, 15, 627e6, time.UTC)
	noInfo := `{"timestamp":"2026-11-26T14:44:16.000Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":null}}`
	noLimits := strings.Replace(tokenCountLine, `"rate_limits":{"limit_id"`, `"rate_limits":null,"x":{"limit_id"`, 1)
	cases := []struct {
		name   string
		lines  []string
		ok     bool
		limits bool
	}{
		{"the newest count", []string{rolloutStarted, tokenCountLine, rolloutComplete}, true, true},
		{"a count with no info is skipped", []string{tokenCountLine, noInfo}, true, true},
		{"no limits given", []string{noLimits}, true, false},
		{"no count yet", []string{rolloutStarted}, false, false},
		{"a cut line", []string{tokenCountLine[30:]}, false, false},
	}
	for _, c := range cases {
		ctx, a, ok := rollout{}.Runway([]byte(strings.Join(c.lines, "\n") + "\n"))
		if ok != c.ok || (a != nil) != c.limits {
			t.Errorf("%s: %+v %+v %v", c.name, ctx, a, ok)
			continue
		}
		if ok && (ctx.Tokens != 50005 || ctx.Window != 258400 || !ctx.At.Equal(at) || ctx.Percent() != 19 || ctx.From != resolver.ContextFromRollout) {
			t.Errorf("%s: %+v", c.name, ctx)
		}
		if a != nil && (a.Agent != Name || a.FiveHour.UsedPercent != 12 || a.SevenDay.UsedPercent != 34 ||
			a.FiveHour.ResetsAt.Unix() != 1795711455 || a.SevenDay.ResetsAt.Unix() != 1795963455 || !a.At.Equal(at)) {
			t.Errorf("%s: limits %+v %+v %+v", c.name, a, a.FiveHour, a.SevenDay)
		}
	}
}

// TestLoadCodexContexts: a Codex session's context and its home's limits
// come from its rollout; of two sessions in one home the newer count
// gives the limits.
func TestLoadContexts(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".codex", "sessions", "2026", "11", "26")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	older := strings.Replace(strings.Replace(tokenCountLine, "14:44:15.627", "14:40:00.000", 1), `"used_percent":12.0`, `"used_percent":5.0`, 1)
	recs := map[string]*store.Record{}
	for id, line := range map[string]string{"a": tokenCountLine, "b": older} {
		p := filepath.Join(dir, "rollout-2026-11-26T14-40-00-"+id+".jsonl")
		if err := os.WriteFile(p, []byte(line+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		recs[id] = &store.Record{SessionID: id, Agent: Name, TranscriptPath: p}
	}
	contexts, codex := resolver.LoadContexts(paths.Layout{Home: home}, &store.Store{Version: store.Version, Sessions: recs}, nil, logs)
	if len(contexts) != 2 || contexts["a"].Tokens != 50005 || contexts["b"].Window != 258400 {
		t.Errorf("contexts %+v", contexts)
	}
	if len(codex) != 1 || codex[0].ConfigDir != filepath.Join(home, ".codex") || codex[0].FiveHour.UsedPercent != 12 {
		t.Errorf("codex accounts %+v", codex)
	}
}

// TestRunwayOutOfBounds: a newest count or limit no model or account
// could have is unknown on every surface, never a number, and never the
// older event's figure either; the event's other figures stand.
func TestRunwayOutOfBounds(t *testing.T) {
	at := time.Date(2026, 11, 26, 14, 44, 15, 0, time.UTC)
	older := strings.Replace(tokenCountLine, "14:44:15.627", "14:40:00.000", 1)
	last := func(tokens string) string {
		return strings.Replace(tokenCountLine, `"reasoning_output_tokens":0,"total_tokens":50005},"last_usage_includes_reasoning"`,
			`"reasoning_output_tokens":0,"total_tokens":`+tokens+`},"last_usage_includes_reasoning"`, 1)
	}
	primary := func(with string) string {
		return strings.Replace(tokenCountLine, `"primary":{"used_percent":12.0,"window_minutes":300,"resets_at":1795711455}`, `"primary":`+with, 1)
	}
	resets := func(in time.Duration) string { return strconv.FormatInt(at.Add(in).Unix(), 10) }
	cases := []struct {
		name      string
		newest    string
		context   bool
		fiveHour  float64 // 0: unknown
		fiveReset time.Time
	}{
		{"a negative count", last("-5"), false, 12, time.Unix(1795711455, 0)},
		{"a billion tokens", last("1000000000"), false, 12, time.Unix(1795711455, 0)},
		{"a window of one token", strings.Replace(tokenCountLine, `"model_context_window":258400`, `"model_context_window":1`, 1), false, 12, time.Unix(1795711455, 0)},
		{"no window", strings.Replace(tokenCountLine, `"model_context_window":258400`, `"model_context_window":0`, 1), false, 12, time.Unix(1795711455, 0)},
		{"1000 %", primary(`{"used_percent":1000.0,"window_minutes":300,"resets_at":1795711455}`), true, 0, time.Time{}},
		{"1e308 %", primary(`{"used_percent":1e308,"window_minutes":300,"resets_at":1795711455}`), true, 0, time.Time{}},
		{"resets in 106751 days", primary(`{"used_percent":12.0,"window_minutes":300,"resets_at":` + resets(106751*24*time.Hour) + `}`), true, 0, time.Time{}},
		{"a 5-hour window resetting in a day", primary(`{"used_percent":12.0,"window_minutes":300,"resets_at":` + resets(24*time.Hour) + `}`), true, 0, time.Time{}},
		{"a window of no length given, resetting in 20 days", primary(`{"used_percent":12.0,"resets_at":` + resets(20*24*time.Hour) + `}`), true, 12, at.Add(20 * 24 * time.Hour)},
		{"a window of absurd length, resetting in 40 days", primary(`{"used_percent":12.0,"window_minutes":1e300,"resets_at":` + resets(40*24*time.Hour) + `}`), true, 0, time.Time{}},
	}
	for _, c := range cases {
		home := t.TempDir()
		dir := filepath.Join(home, ".codex", "sessions", "2026", "11", "26")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "rollout-2026-11-26T14-40-00-a.jsonl")
		if err := os.WriteFile(p, []byte(older+"\n"+c.newest+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		st := &store.Store{Version: store.Version, Sessions: map[string]*store.Record{"a": {SessionID: "a", Agent: Name, TranscriptPath: p}}}
		contexts, accounts := resolver.LoadContexts(paths.Layout{Home: home}, st, nil, logs)
		if _, ok := contexts["a"]; ok != c.context {
			t.Errorf("%s: context %+v, want known %v", c.name, contexts["a"], c.context)
		}
		if len(accounts) != 1 || accounts[0].SevenDay == nil || accounts[0].SevenDay.UsedPercent != 34 {
			t.Errorf("%s: accounts %+v", c.name, accounts)
			continue
		}
		five := accounts[0].FiveHour
		if (five == nil) != (c.fiveHour == 0) || (five != nil && (five.UsedPercent != c.fiveHour || !five.ResetsAt.Equal(c.fiveReset))) {
			t.Errorf("%s: 5-hour window %+v, want %v resetting at %v", c.name, five, c.fiveHour, c.fiveReset)
		}
	}
}
