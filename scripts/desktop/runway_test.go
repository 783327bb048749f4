package desktop

import (
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// TestRunwayWarningOnDesktop: a session whose context window passes 85 %
// (its status line handed `hud statusline` 174,000 of 200,000 tokens)
// shows "ctx 87%" in the menu and brings exactly one warning to the
// notification daemon; the redraws that follow, still over the line,
// bring none.
func TestRunwayWarningOnDesktop(t *testing.T) {
	r := requireDesktop(t)
	home, env := installedHome(t, r)
	notes := make(chan sni.Notification, 16)
	monitor, err := sni.WatchNotifications(notes)
	if err != nil {
		t.Fatal(err)
	}
	defer monitor.Close()
	warnings := func(within time.Duration) []sni.Notification {
		var got []sni.Notification
		deadline := time.After(within)
		for {
			select {
			case n := <-notes:
				if strings.Contains(n.Summary, "context") {
					got = append(got, n)
				}
			case <-deadline:
				return got
			}
		}
	}

	hud := startHud(t, r, env)
	item, err := sni.FindItem(sessionBus(t), hud.cmd.Process.Pid, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	const id = "44444444-dddd-4ddd-8ddd-000000000004"
	api := startClaude(t, buildStandIn(t), installedCommand(t, home), home, "api", id,
		map[string]string{"prompt": "refactor the parser", "command": "go test ./..."})
	api.send("05-SessionStart-startup")
	api.send("06-UserPromptSubmit")
	waitFor(t, item, "api works", func(s seen) bool { return s.icon == "working/1" })

	inUse := func(tokens string) {
		t.Helper()
		statusLine(t, r, env, `{"session_id":"`+id+`","model":{"id":"claude-sonnet-4-5"},`+
			`"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":100,"cache_creation_input_tokens":200,"cache_read_input_tokens":`+tokens+`}}}`)
	}
	inUse("173700")
	api.send("07-PreToolUse") // the store changes: the tray reads again
	waitFor(t, item, "ctx 87% in the menu", func(s seen) bool { return hasAnyLabelPart(s, "ctx 87%") })
	got := warnings(2 * time.Second)
	if len(got) != 1 || got[0].Summary != "api: context 87 %, Claude will compact soon" || got[0].AppName != "hud" {
		t.Fatalf("warnings %+v, want one: api: context 87 %%, Claude will compact soon", got)
	}
	t.Logf("warning: %q / %q", got[0].Summary, got[0].Body)

	inUse("179700")
	api.send("10-PostToolUse")
	waitFor(t, item, "ctx 90% in the menu", func(s seen) bool { return hasAnyLabelPart(s, "ctx 90%") })
	if again := warnings(2 * time.Second); len(again) > 0 {
		t.Errorf("warned again while still over the line: %+v", again)
	}
	api.exit()
	quit(t, item, hud)
}

// hasAnyLabelPart reports whether a menu label holds part.
func hasAnyLabelPart(s seen, part string) bool {
	for _, l := range s.labels {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}
