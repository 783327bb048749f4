package ledger

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// keys are the names of a JSON object, sorted.
func keys(t *testing.T, v any) string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%v is not an object", v)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func TestHistoryJSON(t *testing.T) {
	entries := []Entry{
		{T: at(-10), Key: "a", Host: "devbox", Agent: "codex", Project: "/src/api", Name: "auth", State: "working"},
		waiting(10, "a", "Bash: rm -rf build"),
		answered(10.5, "a", ViaTray, "Allow", false),
		st(10.6, "a", "working"),
		waiting(20, "a", ""),
		{T: at(50), Away: at(30)},
	}
	h := Fold(entries, at(0), at(60))
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if got := keys(t, doc); got != "away from sessions to total" {
		t.Errorf("history names: %s", got)
	}
	if doc["from"] != "2026-03-10T09:00:00Z" || doc["to"] != "2026-03-10T10:00:00Z" {
		t.Errorf("from %v, to %v: want RFC 3339", doc["from"], doc["to"])
	}
	stats := "longest_for longest_response_s median_response_s p90_response_s waiting_s waits working_s"
	total := doc["total"].(map[string]any)
	if got := keys(t, total); got != stats {
		t.Errorf("total names: %s", got)
	}
	// Worked 0–10 and 10.6–20; waited 10–10.6 and 20–60; one answered in 30 s.
	want := map[string]any{"working_s": 1164.0, "waiting_s": 2436.0, "waits": 2.0, "median_response_s": 30.0,
		"p90_response_s": 30.0, "longest_response_s": 30.0, "longest_for": "Bash: rm -rf build"}
	for k, v := range want {
		if total[k] != v {
			t.Errorf("total.%s = %v, want %v", k, total[k], v)
		}
	}
	sessions := doc["sessions"].([]any)
	if len(sessions) != 1 {
		t.Fatalf("sessions: %v", sessions)
	}
	s := sessions[0].(map[string]any)
	if got := keys(t, s); got != "agent host key name project spans stats waits" {
		t.Errorf("session names: %s", got)
	}
	if s["key"] != "a" || s["name"] != "devbox · api · auth (Codex)" || s["host"] != "devbox" || s["agent"] != "codex" ||
		s["project"] != "/src/api" || keys(t, s["stats"]) != stats {
		t.Errorf("session: %v", s)
	}
	spans := s["spans"].([]any)
	if len(spans) != 4 || keys(t, spans[0]) != "from state to" {
		t.Fatalf("spans: %v", spans)
	}
	if sp := spans[1].(map[string]any); sp["state"] != "waiting" || sp["from"] != "2026-03-10T09:10:00Z" || sp["to"] != "2026-03-10T09:10:36Z" {
		t.Errorf("span: %v", sp)
	}
	waits := s["waits"].([]any)
	if len(waits) != 2 || keys(t, waits[0]) != "choice for from how response_s to" || keys(t, waits[1]) != "from how response_s to" {
		t.Fatalf("waits: %v", waits)
	}
	w0, w1 := waits[0].(map[string]any), waits[1].(map[string]any)
	if w0["how"] != "tray" || w0["choice"] != "Allow" || w0["response_s"] != 30.0 || w0["for"] != "Bash: rm -rf build" ||
		w0["to"] != "2026-03-10T09:10:30Z" {
		t.Errorf("first wait: %v", w0)
	}
	if w1["how"] != "still open" || w1["response_s"] != 2400.0 {
		t.Errorf("open wait: %v", w1)
	}
	away := doc["away"].([]any)
	if len(away) != 1 || keys(t, away[0]) != "from state to" || away[0].(map[string]any)["state"] != "away" {
		t.Errorf("away: %v", away)
	}
}

func TestHistoryJSONEmpty(t *testing.T) {
	tests := []struct {
		name string
		h    History
		want string
	}{
		{"nothing folded", Fold(nil, at(0), at(60)),
			`{"from":"2026-03-10T09:00:00Z","to":"2026-03-10T10:00:00Z","total":{"working_s":0,"waiting_s":0,"waits":0,` +
				`"median_response_s":0,"p90_response_s":0,"longest_response_s":0},"sessions":[],"away":[]}`},
		{"zero", History{}, `"sessions":[],"away":[]`},
		{"a session with no waits", Fold([]Entry{st(-1, "a", "ready")}, at(0), at(60)),
			`"stats":{"working_s":0,"waiting_s":0,"waits":0,"median_response_s":0,"p90_response_s":0,"longest_response_s":0},` +
				`"spans":[{"from":"2026-03-10T09:00:00Z","to":"2026-03-10T10:00:00Z","state":"ready"}],"waits":[]}],"away":[]}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.h)
		if err != nil || !strings.Contains(string(b), tt.want) {
			t.Errorf("%s: %s, %v; want it to hold %s", tt.name, b, err, tt.want)
		}
	}
}

func TestSeconds(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want float64
	}{
		{0, 0},
		{1500 * time.Millisecond, 1.5},
		{1999999 * time.Microsecond, 1.999},
		{90 * time.Minute, 5400},
		{-2 * time.Second, -2},
	}
	for _, tt := range tests {
		if got := seconds(tt.d); got != tt.want {
			t.Errorf("seconds(%v) = %v, want %v", tt.d, got, tt.want)
		}
	}
}
