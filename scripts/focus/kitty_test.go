package focus

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A session in a kitty tab that is not the current one, kitty's window
// under another: kitty's remote control switches to the tab and brings
// the window forward.
func TestClickSwitchesToTheKittyTab(t *testing.T) {
	hud, hook := setup(t, [2]string{"kitty", "kitty"})
	d := startDesktop(t)
	home := newHome(t)
	const id = "f0c05e55-0000-4000-8000-00000000000d"
	ev := event(t, home, id)
	// kitty's own socket: how a person with listen_on in kitty.conf runs it.
	to := "unix:" + filepath.Join(home, "kitty.sock")
	k := exec.Command("kitty", "--config", "NONE", "-o", "allow_remote_control=yes", "--listen-on", to, "sh", "-c", "exec cat")
	// Xvfb has no GPU: Mesa's software renderer draws.
	k.Env = append(personEnv(home, d.display), "LIBGL_ALWAYS_SOFTWARE=1")
	k.Dir = home
	start(t, k)
	first := d.windowOf(t, "kitty", k.Process.Pid)
	kitty := func(args ...string) string {
		t.Helper()
		return run(t, home, d.display, "kitty", append([]string{"@", "--to", to}, args...)...)
	}
	claudeWin := strings.TrimSpace(kitty("launch", "--type=tab", "sh", "-c", claude(ev, hook)))
	waitSession(t, hud, home, id)
	kitty("launch", "--type=tab", "sh", "-c", "exec cat")
	other := d.terminal(t, home, "other", "sh", "-c", "exec cat")
	d.waitActive(t, other)

	run(t, home, d.display, hud, "focus", id)
	d.waitActive(t, first)
	deadline := time.Now().Add(5 * time.Second)
	for {
		var osWindows []struct {
			Tabs []struct {
				IsFocused bool `json:"is_focused"`
				Windows   []struct {
					ID int `json:"id"`
				} `json:"windows"`
			} `json:"tabs"`
		}
		if err := json.Unmarshal([]byte(kitty("ls")), &osWindows); err != nil {
			t.Fatal(err)
		}
		var focused string
		for _, w := range osWindows {
			for _, tab := range w.Tabs {
				if tab.IsFocused && len(tab.Windows) == 1 {
					focused = fmt.Sprint(tab.Windows[0].ID)
				}
			}
		}
		if focused == claudeWin {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("kitty's focused window is %q, want %q", focused, claudeWin)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
