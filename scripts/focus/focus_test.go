package focus

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
)

// tools are the programs every test drives, with the Debian package of
// each.
var tools = [][2]string{{"Xvfb", "xvfb"}, {"xfwm4", "xfwm4"}, {"xterm", "xterm"}, {"tmux", "tmux"}}

var claudeBin string

func TestMain(m *testing.M) {
	// xgb logs every error it also returns, and a connection closing.
	xgb.Logger = log.New(io.Discard, "", 0)
	if os.Getenv("HUD_FOCUS") == "1" {
		dir, err := os.MkdirTemp("", "hud-focus-claude")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		// Named claude, like the real one: the hook finds it by name.
		claudeBin = filepath.Join(dir, "claude")
		if out, err := exec.Command("go", "build", "-o", claudeBin, "../desktop/claude").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building the stand-in claude: %v\n%s", err, out)
			os.Exit(1)
		}
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// setup skips outside make focus-test; it needs tools and more (program,
// Debian package).
func setup(t *testing.T, more ...[2]string) (hud, hook string) {
	t.Helper()
	if os.Getenv("HUD_FOCUS") != "1" {
		t.Skip("needs a test desktop: run make focus-test")
	}
	need(t, append(tools, more...))
	hud, hook = os.Getenv("HUD_BIN"), os.Getenv("HUD_HOOK_BIN")
	if hud == "" || hook == "" {
		t.Fatal("set HUD_BIN and HUD_HOOK_BIN (make focus-test does)")
	}
	return hud, hook
}

// need skips the test when a program is missing, except on CI, where
// .ci/run installs them and a missing one fails.
func need(t *testing.T, programs [][2]string) {
	t.Helper()
	var missing, packages []string
	for _, p := range programs {
		if _, err := exec.LookPath(p[0]); err != nil {
			missing, packages = append(missing, p[0]), append(packages, p[1])
		}
	}
	if len(missing) == 0 {
		return
	}
	msg := fmt.Sprintf("missing %s: apt-get install %s", strings.Join(missing, ", "), strings.Join(packages, " "))
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// claude is the shell command that runs the stand-in Claude in a
// terminal: it plays the event at ev through hook, then stays alive
// reading the terminal, and ends with it.
func claude(ev, hook string) string {
	return fmt.Sprintf(`{ echo %s; exec cat; } | HUD_HOOK_COMMAND=%s %s`, ev, hook, claudeBin)
}

// A session in a plain terminal window: the window of Claude's ancestry
// comes forward.
func TestClickRaisesTheTerminalWindow(t *testing.T) {
	hud, hook := setup(t)
	d := startDesktop(t)
	home := newHome(t)
	const id = "f0c05e55-0000-4000-8000-00000000000a"
	ev := event(t, home, id)

	first := d.terminal(t, home, "claude-here", "sh", "-c", claude(ev, hook))
	waitSession(t, hud, home, id)
	other := d.terminal(t, home, "other", "sh", "-c", "exec cat")
	d.waitActive(t, other)

	run(t, home, d.display, hud, "focus", id)
	d.waitActive(t, first)
}

// A session in a tmux pane, not the current one, its tmux server on a
// socket of its own (the hook records it, the click finds the server by
// it): the pane becomes current and the terminal window of the client
// showing it comes forward. A client showing another tmux session is
// switched to the pane's.
func TestClickSelectsTheTmuxPaneAndItsTerminal(t *testing.T) {
	for _, attachedTo := range []string{"work", "elsewhere"} {
		t.Run("client on "+attachedTo, func(t *testing.T) {
			hud, hook := setup(t)
			d := startDesktop(t)
			home := newHome(t)
			const id = "f0c05e55-0000-4000-8000-00000000000b"
			ev := event(t, home, id)
			sock := filepath.Join(home, "tmux.sock")
			tmux := func(args ...string) string {
				t.Helper()
				return strings.TrimSpace(run(t, home, d.display, "tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...))
			}
			pane := tmux("new-session", "-d", "-s", "work", "-x", "80", "-y", "24", "-P", "-F", "#{pane_id}", claude(ev, hook))
			t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
			tmux("new-window", "-t", "work", "cat")
			tmux("new-session", "-d", "-s", "elsewhere", "-x", "80", "-y", "24", "cat")
			waitSession(t, hud, home, id)

			first := d.terminal(t, home, "tmux-client", "tmux", "-S", sock, "attach-session", "-t", attachedTo)
			d.waitFor(t, "the tmux client", func() bool { return tmux("list-clients") != "" })
			other := d.terminal(t, home, "other", "sh", "-c", "exec cat")
			d.waitActive(t, other)
			if cur := tmux("display-message", "-p", "-t", "work", "#{pane_id}"); cur == pane {
				t.Fatalf("setup: %s is current already", pane)
			}

			run(t, home, d.display, hud, "focus", id)
			d.waitActive(t, first)
			if cur := tmux("display-message", "-p", "-t", "work", "#{pane_id}"); cur != pane {
				t.Errorf("tmux's current pane is %s, want %s", cur, pane)
			}
			if shown := tmux("list-clients", "-F", "#{session_name}"); shown != "work" {
				t.Errorf("the client shows session %q, want work", shown)
			}
		})
	}
}

// newHome is a person's home for one test, removed when it ends: after
// its terminals are closed (cleanups run last-registered first), and
// after the lock holders have seen their Claude go and removed its lock.
// The hook's detached workers may still be writing there for a moment, so
// the removal is tried again for a while rather than left to t.TempDir.
func newHome(t *testing.T) string {
	t.Helper()
	home, err := os.MkdirTemp("", "hud-focus-home-")
	if err != nil {
		t.Fatal(err)
	}
	if home, err = filepath.EvalSymlinks(home); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for {
			locks, _ := filepath.Glob(filepath.Join(home, ".claude", "sessions", "*.lock"))
			if len(locks) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("locks left 10s after their Claude ended: %q", locks)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		for {
			err := os.RemoveAll(home)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("removing the home: %v", err)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	return home
}

// event writes a SessionStart for session id in a project under home and
// returns its path.
func event(t *testing.T, home, id string) string {
	t.Helper()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]string{
		"session_id": id, "hook_event_name": "SessionStart", "cwd": proj, "source": "startup",
		"transcript_path": filepath.Join(home, "t.jsonl"),
	})
	path := filepath.Join(home, "event.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// personEnv is the environment of a person whose home is home, on display.
func personEnv(home, display string) []string {
	return []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "DISPLAY=" + display, "LANG=C.UTF-8", "TERM=xterm"}
}

func run(t *testing.T, home, display, name string, args ...string) string {
	t.Helper()
	return runIn(t, personEnv(home, display), home, name, args...)
}

// runIn runs a program with env in dir and returns its output; its
// failure fails the test.
func runIn(t *testing.T, env []string, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = env, dir
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, msg)
	}
	return string(out)
}

// waitSession waits until hud status lists session id live, with its
// process, and returns that process (the stand-in Claude).
func waitSession(t *testing.T, hud, home, id string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		out := run(t, home, "", hud, "status", "--json")
		var v struct {
			Sessions []struct {
				SessionID string `json:"session_id"`
				PID       int    `json:"pid"`
			} `json:"sessions"`
		}
		if json.Unmarshal([]byte(out), &v) == nil {
			for _, s := range v.Sessions {
				if s.SessionID == id && s.PID != 0 {
					return s.PID
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s never showed in hud status:\n%s", id, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
