package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
)

func TestPickSession(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	sessions := []view.Session{
		{SessionID: "aaaa1111-x", State: store.StateWorking, Since: t0, CWD: "/src/api", ProjectDir: "/src/api"},
		{SessionID: "bbbb2222-x", State: store.StateWaiting, Since: t0.Add(time.Minute), CWD: "/src/web/ui", ProjectDir: "/src/web"},
		{SessionID: "bbbb3333-x", State: store.StateWaiting, Since: t0, CWD: "/src/cli", ProjectDir: "/src/cli"},
		{SessionID: "cccc4444-x", State: store.StateReady, Since: t0, CWD: "/src/api", ProjectDir: "/src/api"},
	}
	tests := []struct {
		query, want, err string
	}{
		{"", "bbbb3333-x", ""}, // waiting longest
		{"aaaa", "aaaa1111-x", ""},
		{"bbbb2222-x", "bbbb2222-x", ""},
		{"/src/web", "bbbb2222-x", ""},
		{"/src/web/ui", "bbbb2222-x", ""},
		{"bbbb", "", "names 2 sessions"},
		{"/src/api", "", "names 2 sessions"},
		{"aaa", "", "no live session"}, // too short for a prefix
		{"/nowhere", "", "no live session"},
	}
	for _, tt := range tests {
		got, err := pickSession(sessions, tt.query)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("pickSession(%q) = %s, %v; want error %q", tt.query, got.SessionID, err, tt.err)
			}
			continue
		}
		if err != nil || got.SessionID != tt.want {
			t.Errorf("pickSession(%q) = %s, %v; want %s", tt.query, got.SessionID, err, tt.want)
		}
	}
	if _, err := pickSession(nil, ""); err == nil || !strings.Contains(err.Error(), "no live") {
		t.Errorf("no sessions: %v", err)
	}
}
