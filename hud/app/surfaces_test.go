package app

import (
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// TestEverySurfaceSaysTheSame: a session waiting per Claude's own session
// file (the hook recorded no reason) shows the same name and the same
// reason in the menu, `hud status`, another session's status line and the
// notification, because all four render one view of it.
func TestEverySurfaceSaysTheSame(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	claude := &resolver.ClaudeSession{PID: 41, SessionID: "abcdef1234", Status: "waiting",
		WaitingFor: "Choice: Which database?", Name: "auth refactor", NameSource: "user"}
	waiting := resolver.Session{SessionID: "abcdef1234", State: store.StateWaiting, Source: resolver.SourceLock,
		Since: now.Add(-2 * time.Minute), PID: 41, CWD: "/src/api/cmd",
		Record:  &store.Record{SessionID: "abcdef1234", State: store.StateWorking, CWD: "/src/api/cmd", ProjectDir: "/src/api"},
		Opinion: claude, Claude: claude}
	// The same session before the hook wrote anything: no directory but
	// the lock's, named by its id.
	bare := resolver.Session{SessionID: "0123456789ab", State: store.StateWaiting, Source: resolver.SourceLock,
		Since: now.Add(-time.Minute), PID: 42, Opinion: &resolver.ClaudeSession{Status: "waiting", WaitingFor: "Bash: make"}}
	me := resolver.Session{SessionID: "self", State: store.StateWorking, Source: resolver.SourceLock, Since: now, CWD: "/src/web",
		Record: &store.Record{SessionID: "self", State: store.StateWorking, CWD: "/src/web"}}

	for _, tt := range []struct {
		s         resolver.Session
		name, why string
	}{
		{waiting, "api · auth refactor", "Choice: Which database?"},
		{bare, "session 01234567", "Bash: make"},
	} {
		sessions := []resolver.Session{tt.s, me}
		menu := present.Present(present.Input{Now: now, Sessions: view.All(sessions)})

		v := status.New(sessions, now)
		var table, line, waybar strings.Builder
		if err := status.WriteText(&table, v); err != nil {
			t.Fatal(err)
		}
		if err := status.WriteWaybar(&waybar, v); err != nil {
			t.Fatal(err)
		}
		if err := status.WriteStatusline(&line, v, status.Self{SessionID: "self"}); err != nil {
			t.Fatal(err)
		}

		tracker := notify.NewTracker(config.Default().Notifications)
		tracker.Update(nil, now.Add(-time.Hour))
		sent, _ := tracker.Update(view.All(sessions), now)
		if len(sent) != 1 {
			t.Fatalf("%s: notifications %+v", tt.name, sent)
		}

		surfaces := map[string]string{
			"menu":         menu.Rows[0].Label,
			"hud status":   strings.SplitN(table.String(), "\n", 2)[0],
			"waybar":       waybar.String(),
			"status line":  line.String(),
			"notification": sent[0].Title + " | " + sent[0].Body,
		}
		for surface, got := range surfaces {
			// The name whole, never with Claude's name added twice.
			if !strings.Contains(got, tt.name) || strings.Contains(got, tt.name+" · ") || !strings.Contains(got, tt.why) {
				t.Errorf("%s says %q, want the name %q and the reason %q", surface, got, tt.name, tt.why)
			}
		}
	}
}
