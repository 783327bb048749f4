package desktop

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// TestMenuKeepsItsSwitchWithManyAccounts: with more Claude accounts than
// the menu's section holds (each config directory's status line gave its
// usage limits), the tray's menu, read back over D-Bus, still shows the
// answering switch, and sums up the usage lines it had no room for
// instead of cutting the end of the section.
func TestMenuKeepsItsSwitchWithManyAccounts(t *testing.T) {
	r := requireDesktop(t)
	home, env := installedHome(t, r)
	const accounts = 20
	resets := time.Now().Add(3 * time.Hour).Unix()
	for i := range accounts {
		dir := filepath.Join(home, fmt.Sprintf(".claude-%02d", i))
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		statusLine(t, r, append(slices.Clip(env), "CLAUDE_CONFIG_DIR="+dir),
			fmt.Sprintf(`{"session_id":"acct-%02d","model":{"id":"claude-sonnet-4-5"},`+
				`"rate_limits":{"five_hour":{"used_percentage":%d,"resets_at":%d}}}`, i, 10+i, resets))
	}

	hud := startHud(t, r, env)
	item, err := sni.FindItem(sessionBus(t), hud.cmd.Process.Pid, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	const id = "55555555-eeee-4eee-8eee-000000000005"
	api := startClaude(t, buildStandIn(t), installedCommand(t, home), home, "api", id, map[string]string{"prompt": "tidy up"})
	api.send("05-SessionStart-startup")
	api.send("06-UserPromptSubmit")
	s := waitFor(t, item, "the accounts summed up, the switch shown", func(s seen) bool {
		return s.icon == "working/1" && hasAnyLabelPart(s, "more accounts — run 'hud status' to see them") &&
			hasAnyLabelPart(s, "Answer Claude's dialogs here")
	})
	usage := 0
	for _, l := range s.labels {
		if strings.HasPrefix(l, "Usage ") {
			usage++
		}
	}
	if usage == 0 || usage >= accounts {
		t.Errorf("%d usage lines of %d accounts, want some, summed up past the room:\n%v", usage, accounts, s)
	}
	t.Logf("%d of %d accounts' usage lines shown", usage, accounts)
	api.exit()
	quit(t, item, hud)
}
