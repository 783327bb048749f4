package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostileRepository: the real CLI in a repository whose config names
// a command for fsmonitor, a clean filter, the pager and signature checks.
// The checkpoint the worker writes at the end of the turn still has the
// repository's facts, and none of those commands ran. (The config is
// planted after the session's own commit: Claude Code's git commands are
// Claude's business; hud's must never run it.)
func TestHostileRepository(t *testing.T) {
	r := newRig(t, "proj")
	dir := r.dir("proj")
	gitInit(t, dir)
	c, id := r.startReady("claude", dir)
	c.submit("WRITE:" + filepath.Join(dir, "feature.go"))
	shown := c.waitScreen("the file-creation dialog", 10*time.Second, contains("Do you want to create feature.go?"))
	c.turnEnd(c.answer(shown, "Enter"), 15*time.Second) // "1. Yes"
	// The config is planted once the activity worker of that turn is done:
	// one still running would list the config before it is planted and
	// run git after, the race of a repository rewritten under a running
	// git, not the hostile repository this test is about.
	r.workersDone(filepath.Join(dir, ".claude", ".project-state.json"))

	marker := filepath.Join(r.root, "pwned")
	// The command notes who ran it: the processes above it, up to init.
	script := filepath.Join(r.root, "evil.sh")
	os.WriteFile(script, []byte("#!/bin/sh\np=$$\nwhile [ \"$p\" -gt 1 ]; do tr '\\0' ' ' </proc/$p/cmdline >>"+marker+"; echo >>"+marker+"; p=$(cut -d' ' -f4 /proc/$p/stat); done\necho --- >>"+marker+"\ncat\n"), 0o755)
	evil := script
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("* filter=evil\n"), 0o644)
	git("add", "-A")
	git("commit", "-qm", "the feature")
	for _, kv := range [][2]string{{"core.fsmonitor", evil}, {"filter.evil.clean", evil}, {"filter.evil.process", evil},
		{"core.pager", evil}, {"log.showSignature", "true"}, {"gpg.program", evil}} {
		git("config", kv[0], kv[1])
	}
	// Same size, so racily clean: status must look inside, through the
	// filter were it run.
	b, _ := os.ReadFile(filepath.Join(dir, "feature.go"))
	os.WriteFile(filepath.Join(dir, "feature.go"), []byte(strings.Replace(string(b), "package", "packagf", 1)), 0o644)
	planted := time.Now()

	end := c.turnEnd(c.submit("hello"), 15*time.Second)
	r.expect("turn over in the hostile repository → branch, dirty", end, turnDone, workerLimit, activity(id, "main*", func(a *hudActivity) bool {
		return a.Branch == "main" && a.Dirty
	}))
	path := filepath.Join(dir, ".claude", ".project-state.json")
	deadline := time.Now().Add(workerLimit)
	for {
		if fi, err := os.Stat(path); err == nil && fi.ModTime().After(planted) {
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("checkpoint mode %v, want 0600", fi.Mode().Perm())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint after the turn in the hostile repository")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"branch": "main"`) {
		t.Errorf("checkpoint without the repository's facts:\n%s", b)
	}
	// Claude Code 2.1.330 runs git in the project itself, hardened its own
	// way but not against a clean filter: that is Claude's business. hud's
	// git runs under hud's activity worker, which waits for it, so a chain
	// with hud in it is hud's, and must never be there.
	ran, _ := os.ReadFile(marker)
	for _, chain := range strings.Split(string(ran), "---") {
		for _, line := range strings.Split(strings.TrimSpace(chain), "\n") {
			if isHud(line) {
				t.Errorf("hud ran a command from the repository's git config:\n%s", chain)
				break
			}
		}
	}
}

// isHud reports whether a command line runs one of hud's binaries.
func isHud(cmdline string) bool {
	prog, _, _ := strings.Cut(cmdline, " ")
	return filepath.Base(prog) == "hud-hook" || filepath.Base(prog) == "hud"
}

// workersDone waits, a bounded while, for the checkpoint file of a turn
// that just ended and then for every activity worker of the rig's home
// to have exited. It fails nothing: a turn whose worker wrote nothing
// still lets the test go on.
func (r *rig) workersDone(checkpoint string) {
	deadline := time.Now().Add(workerLimit)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(checkpoint); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for deadline = time.Now().Add(workerLimit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		busy := false
		for _, cmdline := range processesMentioning(r.home) {
			if strings.Contains(cmdline, "activity-worker") {
				busy = true
			}
		}
		if !busy {
			return
		}
	}
	r.t.Logf("an activity worker of %s still runs after %v", r.home, workerLimit)
}
