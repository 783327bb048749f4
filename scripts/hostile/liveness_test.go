package hostile

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestLockGoesWithClaude: another process holds the break timers' lock
// (a stuck `hud break`, a Vibe Check install) while the person sends
// prompts; when Claude exits, its lock directory goes within a second all
// the same. Nothing the lock holder does for its Claude may wait on
// anything but that Claude.
func TestLockGoesWithClaude(t *testing.T) {
	w := newWorld(t)
	timers := filepath.Join(w.home, ".claude", "vibe-check-state.json.lock")
	w.write(timers, "", 0o600)
	f, err := os.OpenFile(timers, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}

	claude := exec.Command(bin.claude)
	claude.Dir = w.project
	claude.Env = []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "HUD_HOOK_COMMAND=" + bin.hook}
	in, err := claude.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := claude.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := claude.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { claude.Process.Kill(); claude.Wait() }()
	replies := bufio.NewScanner(out)
	send := func(name, extra string) {
		t.Helper()
		path := filepath.Join(w.root, name+".json")
		w.write(path, w.event("s1", name, extra), 0o600)
		if _, err := in.Write([]byte(path + "\n")); err != nil {
			t.Fatal(err)
		}
		if !replies.Scan() || !strings.HasPrefix(replies.Text(), "ok ") {
			t.Fatalf("%s: the stand-in Claude answered %q", name, replies.Text())
		}
	}
	send("SessionStart", `,"source":"startup"`)
	for range 2 {
		send("UserPromptSubmit", `,"prompt":"go on"`)
	}
	locks, _ := filepath.Glob(filepath.Join(w.home, ".claude", "sessions", "*.lock"))
	if len(locks) != 1 {
		t.Fatalf("lock directories %v, want the session's one", locks)
	}

	in.Close() // Claude exits, as at /exit
	exited := time.Now()
	claude.Wait()
	for {
		if _, err := os.Lstat(locks[0]); os.IsNotExist(err) {
			break
		}
		if time.Since(exited) > time.Second {
			t.Fatalf("the lock directory is still there %v after Claude exited", time.Since(exited).Round(time.Millisecond))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
