package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tray shows a dialog answered in the terminal closed within this of
// the terminal.
const closedLimit = time.Second

// startTray turns answering on and runs the tray (bin/hud) for the rig on
// a private session bus with no tray host, as on a desktop whose panel
// shows no icons: it still serves the answering socket. It returns once
// the tray answers `hud answer`.
func (r *rig) startTray() {
	r.t.Helper()
	bus, err := exec.LookPath("dbus-run-session")
	if err != nil {
		if os.Getenv("CI") == "true" {
			r.t.Fatal("dbus-run-session is missing (apt-get install dbus): CI must provide it")
		}
		r.t.Skip("dbus-run-session is not installed (apt-get install dbus); the tray cannot run here")
	}
	if out, err := r.hud("answer", "on"); err != nil {
		r.t.Fatalf("hud answer on: %v\n%s", err, out)
	}
	var log bytes.Buffer
	cmd := exec.Command(bus, "--", r.s.hud)
	cmd.Env = r.baseEnv()
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	r.t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		if r.t.Failed() {
			r.t.Logf("the tray's log:\n%s", log.String())
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if out, err := r.hud("answer"); err == nil && strings.Contains(out, "No dialog waits") {
			return
		}
		if time.Now().After(deadline) {
			out, _ := r.hud("answer")
			r.t.Fatalf("the tray never served the answering socket; hud answer says:\n%s\ntray log:\n%s", out, log.String())
		}
	}
}

// hud runs bin/hud with args in the rig's HOME and returns its output.
func (r *rig) hud(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.s.hud, args...)
	cmd.Env = r.baseEnv()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var requestLine = regexp.MustCompile(`request ([0-9a-f]{32})`)

// awaitRequest waits until the tray holds a dialog whose listing has
// every one of texts, and returns its request id.
func (r *rig) awaitRequest(what string, texts ...string) string {
	r.t.Helper()
	var out string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out, _ = r.hud("answer")
		m := requestLine.FindStringSubmatch(out)
		ok := m != nil
		for _, s := range texts {
			ok = ok && strings.Contains(out, s)
		}
		if ok {
			return m[1]
		}
	}
	r.t.Fatalf("%s: the tray never listed the dialog with %q; hud answer says:\n%s\nhook log:\n%s", what, texts, out, r.hookLogTail(15))
	return ""
}

// TestAnswerFromTray: with answering on and the tray running, in classic
// permission mode: a dialog allowed with `hud answer` runs its tool with
// no key pressed; one denied does not; one answered in the terminal while
// the hook waits closes in the tray within a second, and the answer that
// follows is refused as stale; a question is answered with an option.
func TestAnswerFromTray(t *testing.T) {
	r := newRig(t, "proj")
	c, id := r.startReady("claude", r.dir("proj"))
	r.startTray()
	file := func(name string) bool {
		_, err := os.Stat(filepath.Join(r.dir("proj"), name))
		return err == nil
	}

	// Allowed from the tray.
	c.submit("TOOL:touch allowed.txt")
	c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	r.awaitRequest("allow", "Bash: touch allowed.txt", "allow", "deny")
	at := time.Now()
	if out, err := r.hud("answer", id[:8], "allow"); err != nil {
		t.Fatalf("hud answer %s allow: %v\n%s", id[:8], err, out)
	}
	c.waitScreen("the dialog closing", 5*time.Second, dialogGone)
	end := c.turnEnd(at, 20*time.Second)
	r.expect("allowed from the tray, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
	if !file("allowed.txt") {
		t.Fatal("the command allowed from the tray did not run")
	}
	c.waitScreen("the hook's decision shown", 5*time.Second, contains("Allowed by PermissionRequest hook"))

	// Denied from the tray, by project.
	c.submit("TOOL:touch denied.txt")
	c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	r.awaitRequest("deny", "Bash: touch denied.txt")
	at = time.Now()
	if out, err := r.hud("answer", "--project", r.dir("proj"), "deny"); err != nil {
		t.Fatalf("hud answer --project deny: %v\n%s", err, out)
	}
	c.waitScreen("the denial", 5*time.Second, contains("Denied by PermissionRequest hook"))
	end = c.turnEnd(at, 20*time.Second)
	r.expect("denied from the tray, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
	if file("denied.txt") {
		t.Fatal("the command denied from the tray ran")
	}

	// Answered in the terminal while the hook waits.
	c.submit("SLOW:2 TOOL:touch terminal.txt")
	c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	req := r.awaitRequest("terminal", "Bash: touch terminal.txt")
	time.Sleep(300 * time.Millisecond) // a key sent while the dialog still draws is lost
	pressed := c.press("Enter")
	// From the moment the terminal shows the dialog closed, the tray must
	// too within closedLimit (it learns from the hook's next event).
	gone := c.waitScreen("the dialog closing", 5*time.Second, dialogGone)
	var closed time.Duration
	for {
		out, _ := r.hud("answer")
		if !strings.Contains(out, req) {
			closed = time.Since(gone)
			break
		}
		if time.Since(gone) > 5*time.Second {
			t.Fatalf("the tray still lists the dialog answered in the terminal 5 s later:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("answered in the terminal: the tray showed the dialog closed %v after the terminal did", closed.Round(time.Millisecond))
	if closed > closedLimit {
		t.Errorf("the tray showed the dialog answered in the terminal closed %v after the terminal did, want within %v; hook log:\n%s",
			closed, closedLimit, r.hookLogTail(8))
	}
	out, err := r.hud("answer", "--request", req, "deny")
	if err == nil || !strings.Contains(out, "no longer waiting") {
		t.Errorf("the tray's answer after the terminal's was not refused as stale: %v\n%s", err, out)
	}
	end = c.turnEnd(pressed, 20*time.Second)
	r.expect("answered in the terminal, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
	if !file("terminal.txt") {
		t.Fatal("the command allowed in the terminal did not run (a stale answer denied it?)")
	}

	// A question answered with an option.
	const question = "Which database?"
	c.submit("ASK:" + question)
	c.waitScreen("the question", 20*time.Second, func(s string) bool {
		return strings.Contains(s, question) && strings.Contains(s, "Leave it")
	})
	r.awaitRequest("question", question, "Yes", "No")
	at = time.Now()
	if out, err := r.hud("answer", id, "No"); err != nil {
		t.Fatalf("hud answer %s No: %v\n%s", id, err, out)
	}
	c.waitScreen("the answer", 5*time.Second, contains(question+" → No"))
	end = c.turnEnd(at, 20*time.Second)
	r.expect("question answered from the tray, the turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))
}
