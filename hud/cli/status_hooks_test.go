package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

// Hooks wired only in a project's settings: the session's events arrive,
// so `hud status --json` reports no hooks problem (the tray shows the
// state, not the unsure icon); with no session live it does.
func TestStatusHooksFromAProject(t *testing.T) {
	h := newStatusHome(t)
	_, stdout, _ := h.run("status", "--json")
	if !strings.Contains(stdout, `"hooks_problem": "Hooks not installed"`) {
		t.Errorf("no session, no hooks: want the problem\n%s", stdout)
	}
	h.liveLock("/home/me/code/api", "api-session")
	h.record(store.Record{SessionID: "api-session", State: store.StateWorking, CWD: "/home/me/code/api",
		PID: h.self.PID, ProcStarted: h.self.Started}, time.Second, time.Second)
	_, stdout, _ = h.run("status", "--json")
	if !strings.Contains(stdout, `"hooks_problem": ""`) || !strings.Contains(stdout, `"state": "working"`) {
		t.Errorf("a session whose events arrive: want its state and no problem\n%s", stdout)
	}
}
