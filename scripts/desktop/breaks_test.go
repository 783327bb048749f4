package desktop

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// breakConfig makes an eye break due every few seconds, with no early
// delivery, so "on time" and "held while waiting" can be seen in a test.
const breakConfig = `[breaks]
micro_interval = "4s"
micro_duration = "1s"
hydration_interval = "1h"
full_interval = "2h"
dedup_window = "1s"
early_delivery_window = "0s"
`

// breakInterval is micro_interval above.
const breakInterval = 4 * time.Second

// TestBreakRemindersOnDesktop checks the break reminders as a person sees them: with short
// intervals set, a reminder reaches the notification daemon on time; none
// comes while a session waits for the person, and the held one comes as
// soon as they have answered. The menu shows the next break.
func TestBreakRemindersOnDesktop(t *testing.T) {
	r := requireDesktop(t)
	home, env := installedHome(t, r)
	cfg := filepath.Join(home, ".config", "hud", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(breakConfig), 0o600); err != nil {
		t.Fatal(err)
	}

	notes := make(chan sni.Notification, 16)
	monitor, err := sni.WatchNotifications(notes)
	if err != nil {
		t.Fatal(err)
	}
	defer monitor.Close()
	breaks := func(within time.Duration) []sni.Notification {
		var got []sni.Notification
		deadline := time.After(within)
		for {
			select {
			case n := <-notes:
				if strings.Contains(n.Summary, "break") {
					got = append(got, n)
					return got
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
	api := startClaude(t, buildStandIn(t), installedCommand(t, home), home, "api", "33333333-cccc-4ccc-8ccc-000000000003",
		map[string]string{"prompt": "run the test suite", "command": "npm test"})
	started := api.send("05-SessionStart-startup") // the hook starts the break timers
	api.send("06-UserPromptSubmit")
	waitFor(t, item, "the next break in the menu", func(s seen) bool {
		return s.icon == "working/1" && hasAnyLabelPrefix(s, "Next: eye break in")
	})

	// A timed work session in the project shows in the menu.
	start := exec.Command(r.hud, "session", "-C", api.dir, "start", "make the tests pass")
	start.Env = env
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("hud session start: %v\n%s", err, out)
	}
	api.send("07-PreToolUse") // the hook keeps the session's time
	waitFor(t, item, "the work session in the menu", func(s seen) bool {
		return hasAnyLabelPrefix(s, "api · 0s of work")
	})

	// On time: when Vibe Check's state says the eye break is due (its
	// last_micro plus the interval; the session joined the timers the tray
	// started), give or take the D-Bus trip.
	due := lastMicro(t, home).Add(breakInterval)
	got := breaks(time.Until(due) + 3*time.Second)
	if len(got) == 0 {
		t.Fatalf("no break reminder by %v after it was due", 3*time.Second)
	}
	if off := got[0].At.Sub(due); off < -100*time.Millisecond || off > time.Second {
		t.Errorf("reminder %q came %v from when it was due", got[0].Summary, off)
	}
	t.Logf("reminder %v from its due time (%v after the session started): %q / %q", got[0].At.Sub(due).Round(time.Millisecond),
		got[0].At.Sub(started).Round(time.Millisecond), got[0].Summary, got[0].Body)
	if got[0].AppName != "hud" || got[0].Body == "" {
		t.Errorf("reminder %+v: want app hud with a tip", got[0])
	}

	// Waiting for the person: the next reminder comes due but is held.
	api.send("07-PreToolUse")
	api.send("08-PermissionRequest")
	waitFor(t, item, "api waits", func(s seen) bool { return s.icon == "waiting/1" })
	if held := breaks(2*breakInterval + time.Second); len(held) > 0 {
		t.Fatalf("reminder %q while a session waited for the person", held[0].Summary)
	}

	// Answered: the held reminder comes at once.
	answered := api.send("10-PostToolUse")
	got = breaks(3 * time.Second)
	if len(got) == 0 {
		t.Fatal("the held reminder did not come after the person answered")
	}
	t.Logf("held reminder %v after the answer: %q", got[0].At.Sub(answered).Round(time.Millisecond), got[0].Summary)

	api.send("11-Stop")
	api.send("27-SessionEnd-prompt_input_exit")
	api.exit()
	// The session over, its lock holder has let go; the activity worker
	// its Stop started may still run, which TempHome waits for.
	waitFor(t, item, "the session over", func(s seen) bool { return hasLabels(s, "No Claude Code sessions") })
	quit(t, item, hud)
}

// lastMicro reads last_micro (Unix seconds, a float) from Vibe Check's
// state file.
func lastMicro(t *testing.T, home string) time.Time {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, ".claude", "vibe-check-state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		LastMicro float64 `json:"last_micro"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return time.Unix(0, int64(st.LastMicro*float64(time.Second)))
}

// hasAnyLabelPrefix reports whether some menu label starts with prefix.
func hasAnyLabelPrefix(s seen, prefix string) bool {
	for _, l := range s.labels {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
