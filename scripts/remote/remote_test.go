package remote

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/scripts/claudestandin"
)

// rig is what every test shares: the binaries under test.
type rig struct {
	hud, hook, claude string
}

func setUp(t *testing.T) rig {
	t.Helper()
	if os.Getenv("HUD_REMOTE_TEST") != "1" {
		t.Skip("needs sshd: run scripts/remote/run.sh (make remote-test)")
	}
	bin, err := filepath.Abs(filepath.Join("..", "..", "bin"))
	if err != nil {
		t.Fatal(err)
	}
	r := rig{hud: filepath.Join(bin, "hud"), hook: filepath.Join(bin, "hud-hook")}
	r.claude = claudestandin.Build(t, "../desktop/claude")
	return r
}

// status is what `hud status --json` prints, the parts this test reads.
type status struct {
	Sessions []struct {
		SessionID  string `json:"session_id"`
		State      string `json:"state"`
		Project    string `json:"project"`
		WaitingFor string `json:"waiting_for"`
		Host       string `json:"host"`
		PID        *int   `json:"pid"`
	} `json:"sessions"`
	Remotes []struct {
		Host      string `json:"host"`
		Reachable bool   `json:"reachable"`
		Problem   string `json:"problem"`
		Detail    string `json:"detail"`
	} `json:"remotes"`
}

// session finds the session of project on host ("" for this machine).
func (s *status) session(host, project string) (state, waitingFor string, ok bool) {
	for _, x := range s.Sessions {
		if x.Host == host && x.Project == project {
			return x.State, x.WaitingFor, true
		}
	}
	return "", "", false
}

func (s *status) reachable(host string) (bool, string) {
	for _, r := range s.Remotes {
		if r.Host == host {
			return r.Reachable, r.Problem + r.Detail
		}
	}
	return false, "not listed"
}

func TestRemoteSessionsOverSSH(t *testing.T) {
	r := setUp(t)
	server := newSSHD(t)
	remoteHome, localHome := t.TempDir(), t.TempDir()

	// On the "remote": a session waiting for a permission. Here: one at
	// work.
	api := startClaude(t, r, remoteHome, "api", "11111111-aaaa-4bbb-8ccc-000000000001")
	for _, ev := range []string{"05-SessionStart-startup", "06-UserPromptSubmit", "07-PreToolUse", "08-PermissionRequest"} {
		api.send(ev)
	}
	web := startClaude(t, r, localHome, "web", "22222222-aaaa-4bbb-8ccc-000000000002")
	for _, ev := range []string{"05-SessionStart-startup", "06-UserPromptSubmit"} {
		web.send(ev)
	}

	env := append(personEnv(localHome), "HUD_SSH_COMMAND="+server.sshCommand)
	hud := func(args ...string) (string, error) {
		cmd := exec.Command(r.hud, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return string(out), fmt.Errorf("hud %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return string(out), nil
	}
	// The remote's hud is told its HOME the way a person gives the path of
	// a hud that is not on ssh's PATH: the remote command.
	remoteCommand := fmt.Sprintf("env HOME=%s %s", remoteHome, r.hud)
	if out, err := hud("remote", "add", "--name", "devbox", "--command", remoteCommand, "127.0.0.1"); err != nil {
		t.Fatal(err)
	} else if !strings.Contains(out, "added devbox") {
		t.Fatalf("remote add said %q", out)
	}
	if _, err := hud("remote", "add", "--name", "nohud", "--command", "/nonexistent/bin/hud", "127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	statusJSON := func() (status, time.Duration) {
		t.Helper()
		start := time.Now()
		out, err := hud("status", "--json", "--remote-timeout", "15s")
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		var s status
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return s, took
	}

	// A person watching: `hud watch` follows the remote's stream.
	watch := startWatch(t, r.hud, env)

	s, _ := statusJSON()
	if state, waiting, ok := s.session("devbox", "api"); !ok || state != "waiting" || !strings.HasPrefix(waiting, "Bash: ") {
		t.Errorf("remote session: %q %q %v, want waiting for Bash\n%+v", state, waiting, ok, s)
	}
	if state, _, ok := s.session("", "web"); !ok || state != "working" {
		t.Errorf("local session: %q %v\n%+v", state, ok, s)
	}
	for _, x := range s.Sessions {
		if x.Host == "devbox" && x.PID != nil {
			t.Errorf("a remote session has a pid here: %d", *x.PID)
		}
	}
	if ok, why := s.reachable("devbox"); !ok {
		t.Errorf("devbox unreachable: %s", why)
	}
	if ok, why := s.reachable("nohud"); ok || !strings.Contains(why, "hud not found on the remote") {
		t.Errorf("nohud: reachable %v, %q", ok, why)
	}
	for _, format := range []string{"text", "tmux", "waybar"} {
		out, _ := hud("status", "--format", format, "--remote-timeout", "10s")
		t.Logf("hud status --format %s:\n%s", format, out)
	}
	watch.waitFor(t, "the remote's session", func(s *status) bool {
		state, _, ok := s.session("devbox", "api")
		return ok && state == "waiting"
	})

	// The machine goes away: shown unreachable at once, local sessions as
	// they were, and the one-shot status does not wait for it.
	server.kill()
	s, took := statusJSON()
	if ok, why := s.reachable("devbox"); ok || why == "" {
		t.Errorf("devbox after sshd died: reachable %v (%q)", ok, why)
	}
	if _, _, ok := s.session("devbox", "api"); ok {
		t.Errorf("the unreachable machine's session is still listed")
	}
	if state, _, ok := s.session("", "web"); !ok || state != "working" {
		t.Errorf("local session after sshd died: %q %v", state, ok)
	}
	if took > 5*time.Second {
		t.Errorf("hud status took %s with the machine down", took)
	}
	watch.waitFor(t, "devbox unreachable, web still working", func(s *status) bool {
		up, _ := s.reachable("devbox")
		state, _, ok := s.session("", "web")
		_, _, remote := s.session("devbox", "api")
		return !up && ok && state == "working" && !remote
	})
	if out, err := hud("status"); err != nil || !strings.Contains(out, "devbox: unreachable since") {
		t.Errorf("hud status: %q %v", out, err)
	} else {
		t.Logf("hud status, devbox down:\n%s", out)
	}
	for _, format := range []string{"tmux", "waybar"} {
		out, _ := hud("status", "--format", format, "--remote-timeout", "10s")
		t.Logf("hud status --format %s, devbox down:\n%s", format, out)
	}

	// It comes back: so do its sessions, in the one-shot status and in the
	// watch (after the backoff).
	server.start()
	s, _ = statusJSON()
	if state, _, ok := s.session("devbox", "api"); !ok || state != "waiting" {
		t.Errorf("after sshd restarted: %q %v\n%+v", state, ok, s)
	}
	watch.waitFor(t, "the remote's session back", func(s *status) bool {
		state, _, ok := s.session("devbox", "api")
		up, _ := s.reachable("devbox")
		return ok && up && state == "waiting"
	})
}

// watcher is a running `hud watch --format json`, its blocks collected.
type watcher struct {
	mu  sync.Mutex
	out bytes.Buffer
}

func startWatch(t *testing.T, hud string, env []string) *watcher {
	t.Helper()
	cmd := exec.Command(hud, "watch", "--format", "json")
	cmd.Env = env
	w := &watcher{}
	cmd.Stdout = w
	cmd.Stderr = &prefixWriter{t: t, prefix: "hud watch: "}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("hud watch did not stop on SIGINT in 10s (its ssh?)")
			cmd.Process.Kill()
			<-done
		}
	})
	return w
}

func (w *watcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.Write(p)
}

// last is the last complete block: each starts with "-- HH:MM:SS".
func (w *watcher) last() (status, bool) {
	w.mu.Lock()
	text := w.out.String()
	w.mu.Unlock()
	blocks := strings.Split(text, "\n-- ")
	for i := len(blocks) - 1; i >= 0; i-- {
		_, doc, _ := strings.Cut(blocks[i], "\n")
		var s status
		if json.Unmarshal([]byte(doc), &s) == nil {
			return s, true
		}
	}
	return status{}, false
}

func (w *watcher) waitFor(t *testing.T, what string, ok func(*status) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if s, found := w.last(); found && ok(&s) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s, _ := w.last()
	t.Fatalf("hud watch never showed %s; last: %+v", what, s)
}

// startClaude starts a stand-in Claude in home's src/name, running the
// real hook.
func startClaude(t *testing.T, r rig, home, name, id string) *standIn {
	t.Helper()
	return &standIn{claudestandin.Start(t, r.claude, r.hook, personEnv(home), filepath.Join(home, "src", name), id)}
}

// standIn is a stand-in Claude that plays the desktop test's recorded
// events.
type standIn struct{ *claudestandin.Process }

func (s standIn) send(event string) {
	s.Send(filepath.Join("..", "desktop", "testdata", "events", event+".json"), nil)
}

// personEnv is a minimal environment of a person whose home is home.
func personEnv(home string) []string {
	return []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
}

// TestRemoteStreamEndsWithItsConnection: when the local side goes away
// (the tray quits, the laptop sleeps), the remote hud's stream ends too,
// rather than waiting there for the next change to find nobody reading.
func TestRemoteStreamEndsWithItsConnection(t *testing.T) {
	r := setUp(t)
	server := newSSHD(t)
	remoteHome := t.TempDir()
	cmd := exec.Command("sh", "-c", server.sshCommand+` "$@"`, "ssh", "-T", "--", "127.0.0.1",
		fmt.Sprintf("env HOME=%s %s status --watch --json", remoteHome, r.hud))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &prefixWriter{t: t, prefix: "ssh: "}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// sh and its ssh: the connection ends as when the laptop goes away.
	kill := func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() }
	t.Cleanup(kill)
	if !bufio.NewScanner(out).Scan() {
		t.Fatal("no first line from the remote")
	}
	// Every process on the machine, not sshd's descendants: a stream
	// left behind is an orphan.
	streams := func() []int {
		var pids []int
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && strings.HasPrefix(string(b), r.hud+"\x00status\x00--watch") && environHas(e.Name(), "HOME="+remoteHome) {
				pid, _ := strconv.Atoi(e.Name())
				pids = append(pids, pid)
			}
		}
		return pids
	}
	if len(streams()) != 1 {
		t.Fatalf("remote streams %v, want one", streams())
	}
	kill()
	deadline := time.Now().Add(10 * time.Second)
	for len(streams()) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the remote hud %v still runs 10s after its connection ended", streams())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// environHas reports whether process pid's environment holds kv.
func environHas(pid, kv string) bool {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "environ"))
	return err == nil && slices.Contains(strings.Split(string(b), "\x00"), kv)
}
