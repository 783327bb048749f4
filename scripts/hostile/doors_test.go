package hostile

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The doors added after the hostile-repository work: the terminal's
// control sockets a click talks to, the plugin's launcher, the status
// line's stdin, and the store's bounds.

// otherUser is the uid of a second local user, made when the system has
// none to spare; the test is skipped where that cannot be done (not root).
func otherUser(t *testing.T) int {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to hand a file to another user")
	}
	other, err := user.Lookup("nobody")
	if err != nil {
		// CI's container may have no such user: make one.
		if out, err := exec.Command("useradd", "--system", "--no-create-home", "hud-hostile").CombinedOutput(); err != nil {
			t.Skipf("no second user, and useradd failed: %v %s", err, out)
		}
		if other, err = user.Lookup("hud-hostile"); err != nil {
			t.Skip("no second user:", err)
		}
	}
	uid, err := strconv.Atoi(other.Uid)
	if err != nil {
		t.Fatal(err)
	}
	return uid
}

// TestAnotherUsersTmuxSocket: a project's settings set TMUX to a socket
// another local user serves. tmux -S skips tmux's own ownership check,
// and that user's server could make the client run its program as the
// person; so `hud focus` (a click in the tray) must never connect to it.
// The stand-in server counts the connections it gets.
func TestAnotherUsersTmuxSocket(t *testing.T) {
	uid := otherUser(t)
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux")
	}
	for _, tt := range []struct {
		name  string
		setup func(dir string) // makes the directory the socket goes in
	}{
		{"in the other user's directory", func(dir string) {
			os.Mkdir(dir, 0o755)
			os.Chown(dir, uid, uid)
		}},
		{"in a shared sticky directory, as /tmp", func(dir string) {
			os.Mkdir(dir, 0o777)
			os.Chmod(dir, 0o777|os.ModeSticky)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			dir := filepath.Join(w.root, "shared")
			tt.setup(dir)
			sock := filepath.Join(dir, "default")
			l, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if err := os.Chown(sock, uid, uid); err != nil {
				t.Fatal(err)
			}
			os.Chmod(sock, 0o777)
			var connections atomic.Int32
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					connections.Add(1)
					c.Close()
				}
			}()

			// The hook records the terminal of the Claude process it finds
			// (none here), from TMUX and TMUX_PANE: the record as it would
			// stand.
			w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"p"`))
			w.patchRecord(sid, map[string]any{"tmux_pane": "%0", "tmux_socket": sock})
			tools := filepath.Join(w.root, "bin") // tmux, and no file manager to open the folder
			os.Mkdir(tools, 0o755)
			if err := os.Symlink(tmux, filepath.Join(tools, "tmux")); err != nil {
				t.Fatal(err)
			}
			r := w.run("", []string{"PATH=" + tools, "DISPLAY=", "WAYLAND_DISPLAY="}, bin.hud, "focus", sid)
			w.bounded("hud focus", r)
			if n := connections.Load(); n > 0 {
				t.Errorf("hud focus connected %d time(s) to a tmux socket another user owns", n)
			}
			if !strings.Contains(r.stderr, "not talking to the tmux socket") {
				t.Errorf("hud focus does not say why it left tmux alone: %q", r.stderr)
			}
		})
	}
}

// patchRecord sets fields of session id's record in the store.
func (w *world) patchRecord(id string, fields map[string]any) {
	w.t.Helper()
	path := filepath.Join(w.home, ".capacitor", "sessions.json")
	b, err := os.ReadFile(path)
	if err != nil {
		w.t.Fatal(err)
	}
	var store map[string]any
	if err := json.Unmarshal(b, &store); err != nil {
		w.t.Fatal(err)
	}
	rec := store["sessions"].(map[string]any)[id].(map[string]any)
	for k, v := range fields {
		rec[k] = v
	}
	b, _ = json.Marshal(store)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// TestPluginLauncherSkipsTheProject: the plugin's hooks run in the
// project's directory; with an empty or relative PATH entry the launcher
// must not run the project's own ./hud-hook (which would create the
// world's marker).
func TestPluginLauncherSkipsTheProject(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "plugin", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &hooks); err != nil || len(hooks.Hooks["SessionStart"]) == 0 {
		t.Fatalf("the plugin's hooks: %v", err)
	}
	launcher := hooks.Hooks["SessionStart"][0].Hooks[0].Command
	for _, path := range []string{"/usr/bin:/bin:", "/usr/bin::/bin", ".:/usr/bin:/bin", "bin:/usr/bin:/bin", "/usr/bin:/bin:./bin"} {
		t.Run(path, func(t *testing.T) {
			w := newWorld(t)
			planted := "#!/bin/sh\ntouch " + w.marker + "\n"
			w.write(filepath.Join(w.project, "hud-hook"), planted, 0o755)
			w.write(filepath.Join(w.project, "bin", "hud-hook"), planted, 0o755)
			r := w.run(w.event(sid, "SessionStart", `,"source":"startup"`), []string{"PATH=" + path}, "/bin/sh", "-c", launcher)
			if r.code != 0 || r.stdout != "" || r.stderr != "" {
				t.Errorf("launcher: exit %d, stdout %q, stderr %q; want 0 and nothing", r.code, r.stdout, r.stderr)
			}
			// newWorld's cleanup fails the test if the marker exists.
		})
	}
}

// TestStatuslineStdinLeftOpen: whoever runs `hud statusline` and never
// closes its stdin does not hold it forever.
func TestStatuslineStdinLeftOpen(t *testing.T) {
	w := newWorld(t)
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer wr.Close()
	defer r.Close()
	cmd := exec.Command(bin.hud, "statusline")
	cmd.Env = []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH")}
	cmd.Stdin = r
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("hud statusline: %v", err)
		}
		if took := time.Since(start); took > maxDuration {
			t.Errorf("took %s", took.Round(time.Millisecond))
		}
	case <-time.After(3 * maxDuration):
		cmd.Process.Kill()
		<-done
		t.Errorf("hud statusline still waits for a stdin nobody writes after %s", 3*maxDuration)
	}
}

// TestStoreRecordsOutOfTime: records dated far in the future (a clock
// that was wrong, or a hand that wrote them) or not dated at all never
// age, so they were never pruned: the next event drops them.
func TestStoreRecordsOutOfTime(t *testing.T) {
	w := newWorld(t)
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"keep me"`))
	path := filepath.Join(w.home, ".capacitor", "sessions.json")
	b, _ := os.ReadFile(path)
	var store map[string]any
	if err := json.Unmarshal(b, &store); err != nil {
		t.Fatal(err)
	}
	sessions := store["sessions"].(map[string]any)
	future := time.Now().Add(365 * 24 * time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")
	sessions["future"] = map[string]any{"session_id": "future", "state": "waiting", "cwd": "/", "updated_at": future, "state_changed_at": future}
	sessions["undated"] = map[string]any{"session_id": "undated", "state": "waiting", "cwd": "/"}
	sessions["zero"] = map[string]any{"session_id": "zero", "state": "waiting", "cwd": "/", "updated_at": nil}
	b, _ = json.Marshal(store)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	w.hook(w.event("other", "UserPromptSubmit", `,"prompt":"p"`))
	w.mustHave(sid, "other")
	for id := range w.sessions() {
		if id == "future" || id == "undated" || id == "zero" {
			t.Errorf("record %q is still in the store", id)
		}
	}
}

// TestAnotherUsersConfigDir: a project's settings set CLAUDE_CONFIG_DIR
// to a directory another user owns (writable by all, so the hook could
// put its locks there). The hook neither uses nor records it, so no
// reader takes that user's lock directories and session files for the
// person's, and the log says why.
func TestAnotherUsersConfigDir(t *testing.T) {
	uid := otherUser(t)
	w := newWorld(t)
	dir := filepath.Join(w.root, "shared-claude")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777)
	if err := os.Chown(dir, uid, uid); err != nil {
		t.Fatal(err)
	}
	w.mark()
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"p"`), "CLAUDE_CONFIG_DIR="+dir)
	w.checkWrites()
	b, _ := os.ReadFile(filepath.Join(w.home, ".capacitor", "sessions.json"))
	if strings.Contains(string(b), "shared-claude") {
		t.Errorf("the record names another user's config directory:\n%s", b)
	}
	if !strings.Contains(w.debugLog(), "not using CLAUDE_CONFIG_DIR") {
		t.Errorf("the hook's log does not say why it left the directory alone:\n%s", w.debugLog())
	}
}
