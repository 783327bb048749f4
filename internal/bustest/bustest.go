// Package bustest starts a D-Bus session bus of a test's own, for the
// tests of what hud says on the bus (notifications, the desktop checks).
package bustest

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Start starts a private session bus (dbus-daemon) for the test, stopped
// when it ends, and returns its address; the test is skipped where
// dbus-daemon is not installed.
func Start(t testing.TB) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed")
	}
	cmd := exec.Command(daemon, "--session", "--nofork", "--print-address=1", "--address=unix:dir="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case addr := <-line:
		if addr == "" {
			t.Fatal("dbus-daemon printed no address")
		}
		return addr
	case <-time.After(5 * time.Second):
		t.Fatal("dbus-daemon printed no address in 5 s")
	}
	return ""
}

// Use starts a private session bus and points DBUS_SESSION_BUS_ADDRESS at
// it for the rest of the test.
func Use(t *testing.T) {
	t.Helper()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", Start(t))
}
