package resolver

import (
	"testing"
	"time"
)

// The entry's shape is Claude Code 2.1.332's: a system message of subtype
// away_summary, appended to the transcript (its content ends with "(turn
// off recaps in /config)" the first few times).
func TestLastRecap(t *testing.T) {
	since := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	recap := func(at, content string) string {
		return `{"type":"system","subtype":"away_summary","content":"` + content + `","timestamp":"` + at + `","uuid":"u","isMeta":false}`
	}
	tests := []struct {
		name, tail, want string
	}{
		{"none", `{"type":"assistant"}` + "\n", ""},
		{"newest after since", recap("2026-11-29T10:05:00Z", "old") + "\n" + `{"type":"user"}` + "\n" + recap("2026-11-29T10:30:00Z", "Tests pass; PR opened") + "\n", "Tests pass; PR opened"},
		{"before since", recap("2026-11-29T09:59:59Z", "stale") + "\n", ""},
		{"cut first line", `ummary","content":"x","timestamp":"2026-11-29T10:30:00Z"}` + "\n", ""},
		{"another type", `{"type":"user","subtype":"away_summary","content":"typed by the person","timestamp":"2026-11-29T10:30:00Z"}`, ""},
		{"quoted in a message", `{"type":"assistant","message":{"content":"\"away_summary\""},"timestamp":"2026-11-29T10:30:00Z"}`, ""},
	}
	for _, tt := range tests {
		if got := lastRecap([]byte(tt.tail), since); got != tt.want {
			t.Errorf("%s: lastRecap = %q, want %q", tt.name, got, tt.want)
		}
	}
}
