package desktop

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// TestMalformedSignalsOnDesktop: another program of the person's emits
// malformed ActionInvoked signals on the session bus (the id as a string,
// as `gdbus emit … ActionInvoked "'x'" 7` does), without pause while the
// tray follows a session and notifies. The tray, with a real dunst, stays
// up, notifies and follows every step.
func TestMalformedSignalsOnDesktop(t *testing.T) {
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
	attacker, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer attacker.Close()
	// sent counts the signals emitted so far: the tray's run must see at
	// least 100 of them, however fast it goes.
	var sent atomic.Int64
	stop, emitted := make(chan struct{}), make(chan int)
	go func() {
		n := 0
		defer func() { emitted <- n }()
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			if attacker.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", "x", int32(7)) == nil {
				n++
				sent.Store(int64(n))
			}
		}
	}()
	defer func() {
		close(stop)
		if n := <-emitted; n < 100 {
			t.Errorf("only %d malformed signals were emitted, want at least 100", n)
		}
	}()

	hud := startHud(t, r, env)
	item, err := sni.FindItem(sessionBus(t), hud.cmd.Process.Pid, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	api := startClaude(t, claudeBin, hookCommand, home, "api", "11111111-aaaa-4aaa-8aaa-000000000003",
		map[string]string{"prompt": "run the test suite", "command": "npm test"})
	api.send("05-SessionStart-startup")
	api.send("06-UserPromptSubmit")
	api.send("07-PreToolUse")
	// Seen working first: a session the tray first meets already waiting
	// is news of no change, and gets no bubble.
	waitFor(t, item, "api prompted", func(s seen) bool {
		return s.icon == "working/1" && hasLabels(s, `api — working now — "run the test suite"`)
	})
	api.send("08-PermissionRequest")
	waitFor(t, item, "api asks for permission", func(s seen) bool {
		return s.icon == "waiting/1" && hasLabels(s, "api — waiting now — Bash: npm test")
	})
	select {
	case n := <-notes:
		if !strings.Contains(n.Summary+" "+n.Body, "api") {
			t.Errorf("notification %+v: want one naming api", n)
		}
	case <-time.After(3 * time.Second):
		t.Error("no notification for the permission request")
	}
	api.send("10-PostToolUse")
	api.send("11-Stop")
	waitFor(t, item, "api approved and done", func(s seen) bool {
		return s.icon == "ready/1" && hasLabels(s, "api — ready now")
	})
	for deadline := time.Now().Add(10 * time.Second); sent.Load() < 100 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // the tray goes on taking them meanwhile
	}
	select {
	case <-hud.done:
		t.Fatalf("the tray exited: %v\n%s", hud.err, hud.stderr.String())
	default:
	}
	if strings.Contains(hud.stderr.String(), "panic") {
		t.Errorf("the tray logged a panic:\n%s", hud.stderr.String())
	}
	quit(t, item, hud)
}
