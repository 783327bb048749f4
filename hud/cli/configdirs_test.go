package cli

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// otherProcess starts a process that lives for the test, as a second
// Claude.
func otherProcess(t *testing.T) proc.Process {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	p, err := proc.Inspect(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Two Claudes with different config dirs (CLAUDE_CONFIG_DIR): two
// sessions, each with its own lock and its own second opinion, read from
// its own config dir's sessions/.
func TestStatusTwoConfigDirs(t *testing.T) {
	h := newStatusHome(t)
	if h.self.StartTicks == 0 {
		t.Skip("this OS has no start time in clock ticks")
	}
	other := otherProcess(t)
	work := filepath.Join(h.layout.Home, ".claude-work")
	wl := h.layout.WithConfig(work)

	h.liveLock("/home/me/code/api", "api-session")
	h.record(store.Record{SessionID: "api-session", State: store.StateReady, CWD: "/home/me/code/api",
		PID: h.self.PID, ProcStarted: h.self.Started}, time.Minute, time.Minute)

	// The work account's session: its lock and Claude's own file are
	// under ~/.claude-work/sessions, and Claude says a dialog is open.
	meta, _ := json.Marshal(resolver.LockMeta{PID: other.PID, Path: "/home/me/code/web", Created: statusNow.Add(-time.Hour).Unix(),
		ProcStarted: other.Started, SessionID: "web-session"})
	dir := filepath.Join(wl.LockDir(), paths.LockName("/home/me/code/web", other.PID))
	h.write(filepath.Join(dir, "pid"), fmt.Sprint(other.PID))
	h.write(filepath.Join(dir, "meta.json"), string(meta))
	h.record(store.Record{SessionID: "web-session", State: store.StateWorking, CWD: "/home/me/code/web",
		WorkingOn: "fix the build", PID: other.PID, ProcStarted: other.Started, ConfigDir: work}, 30*time.Second, 30*time.Second)
	at := statusNow.Add(-10 * time.Second).UnixMilli()
	h.write(filepath.Join(wl.LockDir(), fmt.Sprintf("%d.json", other.PID)), fmt.Sprintf(
		`{"pid":%d,"sessionId":"web-session","procStart":"%d","status":"waiting","waitingFor":"dialog open","updatedAt":%d,"statusUpdatedAt":%d,"name":"auth refactor","nameSource":"user"}`,
		other.PID, other.StartTicks, at, at))

	_, stdout, stderr := h.run("status", "--json")
	var doc struct {
		Sessions []struct {
			SessionID string `json:"session_id"`
			State     string `json:"state"`
			Source    string `json:"source"`
			Name      string `json:"name"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	got := map[string]string{}
	for _, s := range doc.Sessions {
		got[s.SessionID] = s.State + " " + s.Source + " " + s.Name
	}
	want := map[string]string{"api-session": "ready lock ", "web-session": "waiting lock auth refactor"}
	if len(got) != 2 || got["api-session"] != want["api-session"] || got["web-session"] != want["web-session"] {
		t.Errorf("sessions %v, want %v\n%s", got, want, stdout)
	}
	_, stdout, _ = h.run("status")
	if !strings.Contains(stdout, "web · auth refactor  waiting") {
		t.Errorf("the text format does not name the session:\n%s", stdout)
	}
}
