package desktop

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/scripts/claudestandin"
	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// TestAnswerOnDesktop: with answering on, a permission request shows its
// choices under the session in the menu and as a notification with
// buttons. A click on the notification's "Yes" reaches the waiting hook,
// which tells Claude to go on; so does a click on the menu's "Yes"; each
// time the session goes from waiting to working.
func TestAnswerOnDesktop(t *testing.T) {
	a := startAnswering(t)
	r, home, hookCommand, claudeBin, notes, bus, item, hud := a.r, a.home, a.hookCommand, a.claudeBin, a.notes, a.bus, a.item, a.hud

	api := startClaude(t, claudeBin, hookCommand, home, "api", "11111111-aaaa-4aaa-8aaa-000000000003",
		map[string]string{"prompt": "run the test suite", "command": "npm test"})
	api.send("05-SessionStart-startup")
	api.send("06-UserPromptSubmit")
	api.send("07-PreToolUse")
	waitFor(t, item, "api working", func(s seen) bool { return s.icon == "working/1" })

	// From the notification's button.
	hookDone := api.sendAsync("08-PermissionRequest")
	waitFor(t, item, "api waits, its choices in the menu", func(s seen) bool {
		return s.icon == "waiting/1" && hasLabels(s, "api — waiting now — Bash: npm test",
			detailIndent+"Bash: npm test", detailIndent+"↳ Yes", detailIndent+"↳ Yes, and always allow access to /home/dev/proj/ from this project", detailIndent+"↳ No")
	})
	var withButtons sni.Notification
	for deadline := time.After(3 * time.Second); withButtons.Actions == nil; {
		select {
		case n := <-notes:
			if len(n.Actions) > 0 {
				withButtons = n
			}
		case <-deadline:
			t.Fatal("no notification with buttons for the permission request")
		}
	}
	t.Logf("notification: %q / %q, buttons %q", withButtons.Summary, withButtons.Body, withButtons.Actions)
	if withButtons.Body != "Bash: npm test" || len(withButtons.Actions) != 6 || withButtons.Actions[1] != "Yes" || withButtons.Actions[5] != "No" {
		t.Errorf("notification %+v: want the command and the buttons Yes, Yes and always…, No", withButtons)
	}
	// One bubble: the plain "needs you" is held back for the one with
	// buttons.
	for quiet := time.After(time.Second); ; {
		select {
		case n := <-notes:
			t.Errorf("a second notification for the same dialog: %+v", n)
			continue
		case <-quiet:
		}
		break
	}
	screenshot(t, r, "answer-notification.png")
	// The daemon's signal for a click on "Yes".
	if err := bus.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", uint32(1), withButtons.Actions[0]); err != nil {
		t.Fatal(err)
	}
	expectDecision(t, hookDone, `"behavior":"allow"`)
	api.send("10-PostToolUse")
	waitFor(t, item, "allowed from the notification → working", func(s seen) bool {
		return s.icon == "working/1" && !hasLabels(s, detailIndent+"↳ Yes")
	})
	waitDisplayed(t, 0, "the dialog's notification closed once it was answered")
	// The same click again: the dialog is over, nothing reaches a hook.
	bus.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", uint32(1), withButtons.Actions[0])

	// From the menu.
	hookDone = api.sendAsync("08-PermissionRequest")
	s := waitFor(t, item, "api waits again", func(s seen) bool { return s.icon == "waiting/1" && hasLabels(s, detailIndent+"↳ Yes") })
	_ = s
	clickLabel(t, item, detailIndent+"↳ Yes")
	expectDecision(t, hookDone, `"behavior":"allow"`)
	api.send("10-PostToolUse")
	waitFor(t, item, "allowed from the menu → working", func(s seen) bool {
		return s.icon == "working/1" && !hasLabels(s, detailIndent+"↳ Yes")
	})

	// The menu's switch turns answering off: the next dialog is the
	// terminal's alone, and its hook does not wait.
	clickLabel(t, item, "Answer Claude's dialogs here: on")
	waitFor(t, item, "answering switched off", func(s seen) bool { return hasLabels(s, "Answer Claude's dialogs here: off") })
	select {
	case reply := <-api.sendAsync("08-PermissionRequest"):
		if !strings.HasPrefix(reply, "ok ") {
			t.Errorf("with answering off the dialog's hook said: %s", reply)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("with answering off the dialog's hook still waits 2 s later")
	}
	waitFor(t, item, "api waits, no choices", func(s seen) bool {
		return s.icon == "waiting/1" && !hasLabels(s, detailIndent+"↳ Yes")
	})
	api.send("10-PostToolUse")
	endSession(t, item, api)
	quit(t, item, hud)
}

// detailIndent is the menu's indent of a line under a session.
const detailIndent = "      "

// sendAsync plays an event whose hook waits (for the tray's answer); the
// channel gets the stand-in's reply line, which carries what the hook
// printed.
func (s *standIn) sendAsync(event string) <-chan string {
	return playAsync(s.Process, s.Prepare(s.eventFile(event), s.edit))
}

// playAsync plays the prepared event at path as sendAsync does.
func playAsync(s *claudestandin.Process, path string) <-chan string {
	done := make(chan string, 1)
	go func() {
		s.Play(path)
		reply, err := s.Reply()
		if err != nil {
			reply = err.Error()
		}
		done <- reply
	}()
	return done
}

// expectDecision waits for the hook to exit with Claude's decision.
func expectDecision(t *testing.T, hookDone <-chan string, want string) {
	t.Helper()
	select {
	case reply := <-hookDone:
		if !strings.Contains(strings.ReplaceAll(reply, `\"`, `"`), want) {
			t.Fatalf("the hook's answer to Claude: %s; want %s", reply, want)
		}
		t.Logf("the hook told Claude: %s", reply)
	case <-time.After(3 * time.Second):
		t.Fatal("the hook still waits 3 s after the click")
	}
}

// waitDisplayed waits until dunst shows n notifications.
func waitDisplayed(t *testing.T, n int, step string) {
	t.Helper()
	want := strconv.Itoa(n)
	var got string
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out, err := exec.Command("dunstctl", "count", "displayed").Output()
		if got = strings.TrimSpace(string(out)); err == nil && got == want {
			return
		}
	}
	t.Errorf("%s: dunst shows %s notifications, want %s", step, got, want)
}

// clickLabel clicks the visible menu item with label.
func clickLabel(t *testing.T, item *sni.Item, label string) {
	t.Helper()
	menu, err := item.Menu()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range menu {
		if m.Visible && m.Label == label {
			if err := item.Click(m.ID); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no menu item %q", label)
}

// endSession ends the stand-in's session as /exit does and waits until the
// tray has seen it go: its lock holder is done with the home before the
// test's cleanup removes it.
func endSession(t *testing.T, item *sni.Item, s *standIn) {
	t.Helper()
	s.send("27-SessionEnd-prompt_input_exit")
	s.exit()
	waitFor(t, item, "the session over", func(v seen) bool { return v.icon == "idle/1" && hasLabels(v, "No Claude Code sessions") })
}

// answering is a tray with answering on, for the stand-in Claude's
// sessions in home, and the notifications the daemon is sent.
type answering struct {
	r                            rig
	home, hookCommand, claudeBin string
	notes                        chan sni.Notification
	bus                          *dbus.Conn
	item                         *sni.Item
	hud                          *hudProcess
}

// startAnswering installs hud's hooks into a new home, turns answering
// on, watches the notifications and starts the tray, waiting until its
// menu says answering is on.
func startAnswering(t *testing.T) answering {
	t.Helper()
	r := requireDesktop(t)
	a := answering{r: r, home: claudestandin.TempHome(t), notes: make(chan sni.Notification, 16)}
	env := personEnv(a.home)
	for _, args := range [][]string{{"install", "--hook", r.hook}, {"answer", "on"}} {
		cmd := exec.Command(r.hud, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("hud %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	a.hookCommand = installedCommand(t, a.home)
	a.claudeBin = buildStandIn(t)
	monitor, err := sni.WatchNotifications(a.notes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { monitor.Close() })
	a.hud = startHud(t, r, env)
	a.bus = sessionBus(t)
	if a.item, err = sni.FindItem(a.bus, a.hud.cmd.Process.Pid, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a.item, "answering on", func(s seen) bool { return hasLabels(s, "Answer Claude's dialogs here: on") })
	return a
}
