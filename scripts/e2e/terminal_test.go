package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
)

// TestTerminalRecorded: Claude Code passes its terminal's variables on to
// its hooks, and the hook records them, so a click in the tray can bring
// the exact pane, tab or window forward: the tmux pane and server Claude
// runs in, and the variables kitty, WezTerm and X11 terminals set.
func TestTerminalRecorded(t *testing.T) {
	r := newRig(t, "proj")
	r.env = append(r.env,
		"KITTY_WINDOW_ID=7", "KITTY_LISTEN_ON=unix:/tmp/kitty-e2e",
		"WEZTERM_PANE=3", "WEZTERM_UNIX_SOCKET=/tmp/wezterm-e2e/gui-sock-1",
		"WINDOWID=4194317", "TERM_PROGRAM=tmux",
	)
	c, id := r.startReady("claude", r.dir("proj"))
	socket, err := c.pane.srv.run("display-message", "-p", "#{socket_path}")
	if err != nil {
		t.Fatal(err)
	}
	want := terminal.Terminal{
		TmuxPane: c.pane.id, TmuxSocket: strings.TrimSpace(socket), TermProgram: "tmux",
		KittyWindow: "7", KittyListenOn: "unix:/tmp/kitty-e2e",
		WeztermPane: "3", WeztermSocket: "/tmp/wezterm-e2e/gui-sock-1",
		WindowID: "4194317",
	}
	b, err := os.ReadFile(filepath.Join(r.home, ".capacitor", "sessions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st store.Store
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	rec, ok := st.Sessions[id]
	if !ok {
		t.Fatalf("no record of session %s:\n%s", id, b)
	}
	if rec.Terminal != want {
		t.Errorf("recorded terminal\n got %+v\nwant %+v", rec.Terminal, want)
	}
}
