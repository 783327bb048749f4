package hostile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

const sid = "5c0ffee0-1111-4222-8333-944445555666"

// start records a session in the project (SessionStart) and waits for
// the scan worker it starts.
func (w *world) start() {
	w.t.Helper()
	w.hook(w.event(sid, "SessionStart", `,"source":"startup"`), "CLAUDE_PROJECT_DIR="+w.project)
	w.waitHelpers()
}

// TestRepositoryConfigRunsNothing: a repository's config names a command
// for fsmonitor, filters, diff, pager, signatures. The hook's events and
// every worker job read the repository, and none of it runs.
func TestRepositoryConfigRunsNothing(t *testing.T) {
	w := newWorld(t)
	w.hostileRepo(w.project)
	w.mark()
	w.start()
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"fix it"`))
	// The attacker commits (their own git, neutralized), so the worker
	// has new commits to log.
	w.checkWrites()
	w.git(w.project, "-c", "core.fsmonitor=false", "-c", "filter.evil.clean=", "-c", "filter.evil.process=",
		"-c", "core.hooksPath=/dev/null", "commit", "-qam", "second")
	w.mark()
	for _, job := range []string{"scan", "checkpoint", "handoff"} {
		if r := w.worker(sid, job); r.code != 0 {
			t.Errorf("%s job: exit %d; log:\n%s", job, r.code, w.debugLog())
		}
	}
	w.hook(w.event(sid, "Stop", ``))
	w.hook(w.event(sid, "PreCompact", `,"trigger":"manual"`))
	w.checkWrites()
	var cp struct {
		Git struct{ Branch string } `json:"git"`
	}
	b, err := os.ReadFile(filepath.Join(w.project, ".claude", ".project-state.json"))
	if err != nil || json.Unmarshal(b, &cp) != nil || cp.Git.Branch != "main" {
		t.Errorf("checkpoint without the repository's facts: %v %s", err, b)
	}
}

// TestPlantedCheckpointLink: the repository ships its checkpoint and the
// backup as links to a secret. The secret is never copied into the
// project, never changed, and the checkpoint is 0600.
func TestPlantedCheckpointLink(t *testing.T) {
	w := newWorld(t)
	w.hostileRepo(w.project)
	secret := filepath.Join(w.victim, "id_rsa")
	dotClaude := filepath.Join(w.project, ".claude")
	os.MkdirAll(dotClaude, 0o755)
	os.Symlink(secret, filepath.Join(dotClaude, ".project-state.json"))
	os.Symlink(filepath.Join(w.victim, ".bashrc"), filepath.Join(dotClaude, ".project-state.json.bak"))
	w.mark()
	w.start()
	if r := w.worker(sid, "checkpoint", "--reason", "Stop hook"); r.code != 0 {
		t.Errorf("checkpoint job: exit %d; log:\n%s", r.code, w.debugLog())
	}
	w.checkWrites()
	entries, _ := os.ReadDir(dotClaude)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dotClaude, e.Name()))
		if strings.Contains(string(b), "PRIVATE KEY") {
			t.Errorf("the secret was copied into %s", e.Name())
		}
	}
	fi, err := os.Lstat(filepath.Join(dotClaude, ".project-state.json"))
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("checkpoint: %v, %v; want a regular file, 0600", fi, err)
	}
}

// TestLinkedClaudeDir: the repository's .claude is a link out of the
// project. Nothing is written through it.
func TestLinkedClaudeDir(t *testing.T) {
	w := newWorld(t)
	w.hostileRepo(w.project)
	os.Symlink(w.victim, filepath.Join(w.project, ".claude"))
	w.mark()
	w.start()
	w.worker(sid, "checkpoint", "--reason", "manual")
	w.hook(w.event(sid, "Stop", ``))
	w.checkWrites()
	// The worker's refusal reaches the debug log of the home it works for.
	if log := w.debugLog(); !strings.Contains(log, "not a real directory") {
		t.Errorf("the refusal is not in the debug log:\n%s", log)
	}
}

// TestUnboundedProjectFiles: the files hud reads in a project are links
// to /dev/zero, FIFOs, huge files. Every run stays within its bounds.
func TestUnboundedProjectFiles(t *testing.T) {
	for _, kind := range []string{"dev-zero", "fifo", "huge"} {
		t.Run(kind, func(t *testing.T) {
			w := newWorld(t)
			w.hostileRepo(w.project)
			for _, rel := range []string{".claude/session-state.json", "PLAN.md", ".claude/.project-state.json"} {
				path := filepath.Join(w.project, rel)
				os.MkdirAll(filepath.Dir(path), 0o755)
				switch kind {
				case "dev-zero":
					os.Symlink("/dev/zero", path)
				case "fifo":
					if err := unix.Mkfifo(path, 0o644); err != nil {
						t.Fatal(err)
					}
				case "huge":
					f, _ := os.Create(path)
					f.Truncate(3 << 30) // sparse: 3 GB to read, nothing on disk
					f.Close()
				}
			}
			w.mark()
			w.start()
			for _, ev := range []string{"UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} {
				w.hook(w.event(sid, ev, `,"prompt":"p","tool_name":"Bash","tool_input":{"command":"ls"}`))
			}
			w.worker(sid, "checkpoint", "--reason", "manual")
			r := w.run("", nil, bin.hud, "session", "status")
			w.bounded("hud session status", r)
			w.checkWrites()
		})
	}
}

// TestClaudeProjectDirDecides: a .git and a work session in a parent
// directory (another user's /tmp/.git) must not decide which file the
// hook reads and writes: Claude Code's CLAUDE_PROJECT_DIR does.
func TestClaudeProjectDirDecides(t *testing.T) {
	w := newWorld(t)
	parent := w.victim
	os.Mkdir(filepath.Join(parent, ".git"), 0o755)
	state := filepath.Join(parent, ".claude", "session-state.json")
	w.write(state, `{"sessionId":"x","status":"IN_PROGRESS","startTime":"2026-01-01T00:00:00Z","lastMessageTime":"2026-01-01T00:00:00Z"}`, 0o644)
	w.project = filepath.Join(parent, "mine")
	os.Mkdir(w.project, 0o755)
	w.mark()
	w.hook(w.event(sid, "SessionStart", `,"source":"startup"`), "CLAUDE_PROJECT_DIR="+w.project)
	w.hook(w.event(sid, "UserPromptSubmit", `,"prompt":"p"`), "CLAUDE_PROJECT_DIR="+w.project)
	w.waitHelpers()
	if _, ok := w.before[state]; !ok {
		t.Fatal("no snapshot of the planted session")
	}
	if after := snapshot(state)[state]; after != w.before[state] {
		t.Errorf("the parent's work session was rewritten")
	}
}

// TestAnotherUsersRepository: a repository owned by another user (a
// shared /tmp) keeps git's ownership check: git refuses it, as git
// itself would, and none of its config runs.
func TestAnotherUsersRepository(t *testing.T) {
	uid := otherUser(t)
	w := newWorld(t)
	w.hostileRepo(w.project)
	filepath.Walk(w.project, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, uid, uid) })
	w.mark()
	w.start()
	w.worker(sid, "checkpoint", "--reason", "manual")
	w.checkWrites()
	b, _ := os.ReadFile(filepath.Join(w.project, ".claude", ".project-state.json"))
	if strings.Contains(string(b), `"branch"`) {
		t.Errorf("git read a repository another user owns: %s", b)
	}
}

// TestInstallProjectLinkOut: a repository whose .claude, or whose
// .claude/settings.json, is a link out of the project (here to the
// person's files): `hud install --project` refuses with a clear error and
// edits nothing, and writes no backup, on the other side of the link. A
// link that stays inside the project is followed.
func TestInstallProjectLinkOut(t *testing.T) {
	for _, link := range []string{".claude", ".claude/settings.json"} {
		t.Run(strings.ReplaceAll(link, "/", "_"), func(t *testing.T) {
			w := newWorld(t)
			w.write(filepath.Join(w.victim, "settings.json"), "{\"model\": \"theirs\"}\n", 0o600)
			target := w.victim
			if link != ".claude" {
				target = filepath.Join(w.victim, "settings.json")
				os.MkdirAll(filepath.Join(w.project, ".claude"), 0o755)
			}
			if err := os.Symlink(target, filepath.Join(w.project, link)); err != nil {
				t.Fatal(err)
			}
			w.mark()
			r := w.run("", nil, bin.hud, "install", "--project", w.project, "--hook", bin.hook)
			if r.code == 0 || !strings.Contains(r.stderr, "link out of the project") {
				t.Errorf("install through %s: exit %d, stderr %q", link, r.code, r.stderr)
			}
			w.checkWrites()
		})
	}
	w := newWorld(t)
	os.MkdirAll(filepath.Join(w.project, "config"), 0o755)
	if err := os.Symlink("config", filepath.Join(w.project, ".claude")); err != nil {
		t.Fatal(err)
	}
	if r := w.run("", nil, bin.hud, "install", "--project", w.project, "--hook", bin.hook); r.code != 0 {
		t.Fatalf("install through a link inside the project: exit %d, stderr %q", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(w.project, "config", "settings.json")); err != nil || !strings.Contains(string(b), bin.hook) {
		t.Errorf("the project's settings through its own link: %q, %v", b, err)
	}
}
