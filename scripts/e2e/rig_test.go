package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// rig is one scenario's world: a temp HOME with Claude Code onboarded and
// the hooks wired, project directories, and the Claude processes started
// in them.
type rig struct {
	t     *testing.T
	s     *suite
	root  string // holds home/ and the projects
	home  string
	procs []*claudeProc
	// hooked is set once the hooks are wired: from then on every step is
	// checked in `hud status` too.
	hooked bool
	spool  string // where the recording hook saves (HUD_E2E_RECORD)
	// env is added to every Claude process's environment.
	env []string
}

// newRig makes a temp HOME and the project directories (relative paths
// under the rig's root; the first path component of each gets a .git so
// the hook finds the project root), trusts them all, and wires the hooks.
func newRig(t *testing.T, projects ...string) *rig {
	t.Helper()
	s := needSuite(t)
	s.preflight(t)
	r := makeRig(t, s, projects...)
	r.wireHooks()
	return r
}

// makeRig is newRig without the hooks.
func makeRig(t *testing.T, s *suite, projects ...string) *rig {
	t.Helper()
	root, err := os.MkdirTemp("", "hud-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	// Claude reports the real path of its cwd; so must the test.
	if root, err = filepath.EvalSymlinks(root); err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, s: s, root: root, home: filepath.Join(root, "home")}
	t.Cleanup(r.cleanup)

	trusted := map[string]any{}
	for _, p := range projects {
		dir := r.dir(p)
		top := r.dir(strings.Split(p, "/")[0])
		for _, d := range []string{dir, filepath.Join(top, ".git")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		trusted[dir] = map[string]any{"hasTrustDialogAccepted": true}
	}
	if err := os.MkdirAll(filepath.Join(r.home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	// Without these Claude Code stops at its onboarding, API-key and
	// workspace-trust screens (and no hook runs before trust).
	config := map[string]any{
		"hasCompletedOnboarding": true,
		"projects":               trusted,
		"customApiKeyResponses": map[string]any{
			"approved": []string{apiKey[len(apiKey)-20:]},
			"rejected": []string{},
		},
	}
	writeJSON(t, filepath.Join(r.home, ".claude.json"), config)
	// The person's permission mode: manual, in which Claude asks before a
	// tool runs. Without it 2.1.330 starts in auto mode, where a classifier
	// answers instead of the person and the scenarios' dialogs never show;
	// with it, 2.1.330 asks once whether to make auto mode the default
	// (answered in startupQuestions).
	writeJSON(t, filepath.Join(r.home, ".claude", "settings.json"), map[string]any{
		"permissions": map[string]any{"defaultMode": "default"},
	})
	return r
}

// preflight checks, once per run and before any scenario, that the CLI
// reaches its prompt against the stand-in and answers a prompt, with no
// hooks wired: when it does not, nothing the HUD does can be judged.
func (s *suite) preflight(t *testing.T) {
	t.Helper()
	s.preflightOnce.Do(func() {
		r := makeRig(t, s, "preflight")
		c := r.launch("preflight", r.dir("preflight"))
		_, err := c.atPrompt(promptLimit)
		if err == nil {
			c.submit("hello")
			if screen, ok := c.pane.waitScreen(15*time.Second, contains("Hello from the stand-in")); !ok {
				err = fmt.Errorf("no answer on screen; screen:\n%s\nstand-in log:\n%s", lastLines(screen, 30), s.apiLog.tail(10))
			}
		}
		if err != nil {
			s.preflightErr = fmt.Sprintf("the Claude Code CLI %s did not reach its prompt and answer a prompt against the stand-in API "+
				"(no hooks wired: this is not a HUD failure): %v", s.version, err)
		}
		c.pane.close()
	})
	if s.preflightErr != "" {
		t.Fatal(s.preflightErr)
	}
}

// dir is the absolute path of a project directory.
func (r *rig) dir(rel string) string { return filepath.Join(r.root, filepath.FromSlash(rel)) }

func (r *rig) cleanup() {
	for _, c := range r.procs {
		// The hook must never show in the person's transcript.
		if screen := c.pane.capture(); strings.Contains(strings.ToLower(screen), "hook error") {
			r.t.Errorf("%s shows a hook error on screen:\n%s", c.name, lastLines(screen, 25))
		}
		c.pane.close()
	}
	// Closing a pane hangs Claude up; one that has not gone in 3 s is
	// killed, so the leftover check below only sees what outlived it.
	deadline := time.Now().Add(3 * time.Second)
	for _, c := range r.procs {
		for processAlive(c.pane.pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if processAlive(c.pane.pid) {
			r.t.Logf("%s (pid %d) ignored SIGHUP for 3 s; killing it", c.name, c.pane.pid)
			_ = syscall.Kill(c.pane.pid, syscall.SIGKILL)
			for i := 0; i < 50 && processAlive(c.pane.pid); i++ {
				time.Sleep(20 * time.Millisecond)
			}
		}
	}
	r.checkNoLeftovers()
	if r.spool != "" {
		if err := r.saveRecording(); err != nil {
			r.t.Errorf("saving the recording: %v", err)
		}
	}
	if r.s.keep || r.t.Failed() && os.Getenv(envKeep) != "0" {
		r.t.Logf("kept the scenario's files in %s", r.root)
		return
	}
	_ = os.RemoveAll(r.root)
}

// checkNoLeftovers fails the test when a process started for it (a lock
// holder, whose command line names the lock in this HOME) outlives every
// Claude process by more than a second, and ends it.
func (r *rig) checkNoLeftovers() {
	deadline := time.Now().Add(time.Second)
	left := processesMentioning(r.root)
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		left = processesMentioning(r.root)
	}
	for pid, cmdline := range left {
		r.t.Errorf("process %d outlived every Claude process of the scenario by more than 1 s: %s", pid, cmdline)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// baseEnv is the whole environment of every process the suite starts: the
// machine's own variables (a developer's ANTHROPIC_* or CLAUDE_* among
// them) never leak in.
func (r *rig) baseEnv() []string {
	return []string{
		"HOME=" + r.home,
		"PATH=" + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"SHELL=/bin/bash",
		"USER=e2e",
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
