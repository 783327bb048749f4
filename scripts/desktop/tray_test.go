package desktop

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/claudestandin"
	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// TestTrayFollowsSessions checks the tray as a person would see it:
// every step of two Claude sessions shows in the panel, and a permission
// request pops a notification.
func TestTrayFollowsSessions(t *testing.T) {
	r := requireDesktop(t)
	home, env := installedHome(t, r)
	hookCommand := installedCommand(t, home)
	claudeBin := buildStandIn(t)

	notes := make(chan sni.Notification, 16)
	monitor, err := sni.WatchNotifications(notes)
	if err != nil {
		t.Fatal(err)
	}
	defer monitor.Close()

	hud := startHud(t, r, env)
	item, err := sni.FindItem(sessionBus(t), hud.cmd.Process.Pid, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}

	waitFor(t, item, "no session yet", func(s seen) bool {
		return s.icon == "idle/1" && s.tooltip == "Claude Code: no sessions" &&
			hasLabels(s, "No Claude Code sessions", "Open debug log", "Quit")
	})

	api := startClaude(t, claudeBin, hookCommand, home, "api", "11111111-aaaa-4aaa-8aaa-000000000001",
		map[string]string{"prompt": "run the test suite", "command": "npm test"})
	api.send("05-SessionStart-startup")
	waitFor(t, item, "api started", func(s seen) bool {
		return s.icon == "ready/1" && s.tooltip == "Claude Code: 1 ready\napi — ready now" &&
			hasLabels(s, "api — ready now") && !hasLabels(s, "No Claude Code sessions")
	})

	api.send("06-UserPromptSubmit")
	api.send("07-PreToolUse")
	waitFor(t, item, "api prompted", func(s seen) bool {
		return s.icon == "working/1" && hasLabels(s, `api — working now — "run the test suite"`) &&
			strings.HasPrefix(s.tooltip, "Claude Code: 1 working")
	})

	api.send("08-PermissionRequest")
	waiting := waitFor(t, item, "api asks for permission", func(s seen) bool {
		return s.icon == "waiting/1" && hasLabels(s, "api — waiting now — Bash: npm test")
	})
	if waiting.title != "1 waiting" {
		t.Errorf("Title = %q, want the short summary", waiting.title)
	}
	select {
	case n := <-notes:
		if n.AppName != "hud" || !strings.Contains(n.Summary+" "+n.Body, "npm test") || !strings.Contains(n.Summary+" "+n.Body, "api") {
			t.Errorf("notification %+v: want app hud naming the project and the command", n)
		}
		t.Logf("notification: %q / %q", n.Summary, n.Body)
	case <-time.After(3 * time.Second):
		t.Error("no notification for the permission request")
	}

	web := startClaude(t, claudeBin, hookCommand, home, "web", "22222222-bbbb-4bbb-8bbb-000000000002",
		map[string]string{"prompt": "fix the login form", "command": "go test ./..."})
	web.send("05-SessionStart-startup")
	web.send("06-UserPromptSubmit")
	waitFor(t, item, "two sessions, attention first", func(s seen) bool {
		return s.icon == "waiting/2" && len(s.labels) >= 2 &&
			s.labels[0] == "api — waiting now — Bash: npm test" &&
			s.labels[1] == `web — working now — "fix the login form"` &&
			strings.HasPrefix(s.tooltip, "Claude Code: 1 waiting · 1 working")
	})
	if err := item.OpenMenu(); err != nil {
		t.Errorf("opening the menu: %v", err)
	}
	time.Sleep(300 * time.Millisecond) // let dunst draw its bubble
	screenshot(t, r, "tray-two-sessions.png")

	api.send("10-PostToolUse")
	api.send("11-Stop")
	waitFor(t, item, "api approved and done", func(s seen) bool {
		return s.icon == "working/2" && hasLabels(s, "api — ready now", `web — working now — "fix the login form"`)
	})

	web.exit() // the terminal closes: no SessionEnd, the lock holder sees the exit
	waitFor(t, item, "web's Claude gone", func(s seen) bool {
		return s.icon == "ready/1" && hasLabels(s, "api — ready now") && !hasLabels(s, `web — working now — "fix the login form"`)
	})

	api.send("27-SessionEnd-prompt_input_exit")
	api.exit()
	waitFor(t, item, "all sessions over", func(s seen) bool {
		return s.icon == "idle/1" && s.tooltip == "Claude Code: no sessions" && hasLabels(s, "No Claude Code sessions")
	})

	// One tray per user: a second hud says so and leaves.
	second := exec.Command(r.hud)
	second.Env = env
	out, err := second.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "already running") {
		t.Errorf("second hud: %v, %q; want exit 0 saying a tray already runs", err, out)
	}

	quit(t, item, hud)
}

// quit picks Quit in the menu and expects hud to exit 0.
func quit(t *testing.T, item *sni.Item, hud *hudProcess) {
	t.Helper()
	menu, err := item.Menu()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range menu {
		if m.Label == "Quit" && m.Visible {
			if err := item.Click(m.ID); err != nil {
				t.Fatal(err)
			}
			select {
			case <-hud.done:
				if hud.err != nil {
					t.Errorf("hud after Quit: %v", hud.err)
				}
			case <-time.After(5 * time.Second):
				t.Error("hud still runs 5 s after Quit")
			}
			return
		}
	}
	t.Fatal("no Quit in the menu")
}

// TestNoSessionBus: started outside any desktop session, hud says why it
// cannot show anything and exits 1, as `hud run --help` documents.
func TestNoSessionBus(t *testing.T) {
	r := requireDesktop(t)
	home := claudestandin.TempHome(t)
	cmd := exec.Command(r.hud)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + t.TempDir()}
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("hud without a session bus: %v; want exit status 1\n%s", err, out)
	}
	for _, want := range []string{"no D-Bus session bus", "hint: start hud inside your desktop session"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("message lacks %q:\n%s", want, out)
		}
	}
}

// installedCommand is the command `hud install` wrote for SessionStart.
func installedCommand(t *testing.T, home string) string {
	t.Helper()
	return hookCommandIn(t, filepath.Join(home, ".claude", "settings.json"))
}

// hookCommandIn is the hud-hook command for SessionStart in a hooks file
// of Claude Code's shape (Claude's settings.json, Codex's hooks.json).
func hookCommandIn(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal(b, &settings); err != nil {
		t.Fatal(err)
	}
	for _, group := range settings.Hooks["SessionStart"] {
		for _, h := range group.Hooks {
			if strings.Contains(h.Command, "hud-hook") {
				return h.Command
			}
		}
	}
	t.Fatalf("no hud-hook command for SessionStart in %s:\n%s", file, b)
	return ""
}

// buildStandIn builds ./claude into a directory of its own, named claude
// like the real CLI.
func buildStandIn(t *testing.T) string { return claudestandin.Build(t, "./claude") }

// TestInstallFromTheMenu: with no hooks anywhere the tray is unsure and
// offers to install them; a click does what `hud install` does (the hook
// beside hud goes into ~/.claude/settings.json) and the offer goes away.
func TestInstallFromTheMenu(t *testing.T) {
	r := requireDesktop(t)
	home := claudestandin.TempHome(t)
	hud := startHud(t, r, personEnv(home))
	item, err := sni.FindItem(sessionBus(t), hud.cmd.Process.Pid, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	const offer = "Hooks not installed — click to install"
	waitFor(t, item, "no hooks", func(s seen) bool {
		return s.icon == "unsure/1" && hasLabels(s, offer, "No Claude Code sessions")
	})
	menu, err := item.Menu()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(menu, func(m sni.MenuItem) bool { return m.Label == offer && m.Visible })
	if i < 0 {
		t.Fatalf("no %q item in the menu", offer)
	}
	if err := item.Click(menu[i].ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, item, "hooks installed from the menu", func(s seen) bool {
		return s.icon == "idle/1" && !hasLabels(s, offer) && hasLabels(s, "No Claude Code sessions")
	})
	if cmd := installedCommand(t, home); !strings.Contains(cmd, r.hook) {
		t.Errorf("settings.json runs %q, want the hook beside hud, %s", cmd, r.hook)
	}
	if log := hud.stderr.String(); !strings.Contains(log, "install: Installed ") {
		t.Errorf("the tray's log does not say what install did:\n%s", log)
	}
	quit(t, item, hud)
}
