package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
}

// newRig makes a temp HOME and the project directories (relative paths
// under the rig's root; the first path component of each gets a .git so
// the hook finds the project root), trusts them all, and wires the hooks.
func newRig(t *testing.T, projects ...string) *rig {
	t.Helper()
	s := needSuite(t)
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
	r.wireHooks()
	return r
}

// dir is the absolute path of a project directory.
func (r *rig) dir(rel string) string { return filepath.Join(r.root, filepath.FromSlash(rel)) }

func (r *rig) cleanup() {
	for _, c := range r.procs {
		c.pane.close()
	}
	// Give the processes a moment to go before their files do.
	deadline := time.Now().Add(3 * time.Second)
	for _, c := range r.procs {
		for processAlive(c.pane.pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if r.s.keep || r.t.Failed() && os.Getenv(envKeep) != "0" {
		r.t.Logf("kept the scenario's files in %s", r.root)
		return
	}
	_ = os.RemoveAll(r.root)
}

// wireHooks wires hud-hook into ~/.claude/settings.json the way a person
// does, with `hud install`. Should that command not work (yet), the suite
// writes an equivalent settings file itself and says so in its summary.
func (r *rig) wireHooks() {
	cmd := exec.Command(r.s.hud, "install", "--hook", r.s.hook)
	cmd.Env = r.baseEnv()
	out, err := cmd.CombinedOutput()
	settings := filepath.Join(r.home, ".claude", "settings.json")
	if err == nil {
		if missing := missingHookEvents(settings); len(missing) == 0 {
			r.s.hooksOnce.Do(func() { r.s.hooksBy = "`hud install`" })
			return
		} else {
			err = fmt.Errorf("settings.json lacks %s", strings.Join(missing, ", "))
		}
	}
	why := fmt.Sprintf("`hud install` failed (%v: %s)", err, strings.TrimSpace(lastLines(string(out), 3)))
	r.s.hooksOnce.Do(func() {
		r.s.hooksBy = "the suite's own settings.json, because " + why
	})
	r.t.Logf("hooks: %s; writing settings.json directly", why)
	writeJSON(r.t, settings, hookSettings(r.s.hook))
}

// hookEvents is every event the HUD listens to.
var hookEvents = []string{
	"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
	"PermissionRequest", "Notification", "Stop", "StopFailure", "SubagentStart",
	"SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "CwdChanged",
}

// toolEvents take a matcher.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true, "PermissionRequest": true}

// hookSettings is the settings.json fallback: every event, synchronous,
// a short timeout.
func hookSettings(hook string) map[string]any {
	hooks := map[string]any{}
	for _, ev := range hookEvents {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": 10}}}
		if toolEvents[ev] {
			group["matcher"] = "*"
		}
		hooks[ev] = []any{group}
	}
	return map[string]any{"hooks": hooks}
}

// missingHookEvents lists the events settings.json wires no command for.
func missingHookEvents(path string) []string {
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &settings)
	}
	if err != nil {
		return []string{"everything (" + err.Error() + ")"}
	}
	var missing []string
	for _, ev := range hookEvents {
		found := false
		for _, g := range settings.Hooks[ev] {
			for _, h := range g.Hooks {
				found = found || strings.Contains(h.Command, "hud-hook")
			}
		}
		if !found {
			missing = append(missing, ev)
		}
	}
	return missing
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

// claudeEnv adds what points Claude Code at the stand-in and keeps it
// quiet: no updater, no telemetry, no other traffic.
func (r *rig) claudeEnv() []string {
	return append(r.baseEnv(),
		"ANTHROPIC_BASE_URL="+r.s.apiURL,
		"ANTHROPIC_API_KEY="+apiKey,
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	)
}

// claudeProc is one Claude Code process in its tmux pane.
type claudeProc struct {
	r        *rig
	name     string
	dir      string
	pane     *pane
	launched time.Time
	ready    time.Time // when its prompt showed (interactive only)
}

// launch starts claude with args in dir. The pane runs it with exec, so the
// pane's pid is Claude's.
func (r *rig) launch(name, dir string, args ...string) *claudeProc {
	r.t.Helper()
	// env -i: only claudeEnv, plus the terminal variables tmux gives the pane.
	words := []string{"exec", "env", "-i", `TERM="$TERM"`, `TMUX="$TMUX"`, `TMUX_PANE="$TMUX_PANE"`}
	for _, kv := range r.claudeEnv() {
		words = append(words, shellQuote(kv))
	}
	words = append(words, shellQuote(r.s.claude))
	for _, a := range args {
		words = append(words, shellQuote(a))
	}
	c := &claudeProc{r: r, name: name, dir: dir, launched: time.Now()}
	p, err := r.s.tmux.newWindow(name, dir, strings.Join(words, " "))
	if err != nil {
		r.t.Fatalf("starting %s: %v", name, err)
	}
	c.pane = p
	r.procs = append(r.procs, c)
	return c
}

// startInteractive launches an interactive claude and waits for its prompt
// and for its own session file (~/.claude/sessions/<pid>.json).
func (r *rig) startInteractive(name, dir string) *claudeProc {
	r.t.Helper()
	c := r.launch(name, dir)
	screen, ok := c.pane.waitScreen(30*time.Second, promptShown)
	if !ok {
		r.t.Fatalf("the Claude Code CLI (%s) did not reach its prompt within 30 s; screen:\n%s\nstand-in log:\n%s",
			name, lastLines(screen, 30), r.s.apiLog.tail(10))
	}
	c.ready = time.Now()
	deadline := time.Now().Add(10 * time.Second)
	for c.sessionID() == "" {
		if time.Now().After(deadline) {
			r.t.Fatalf("%s: Claude Code wrote no %s within 10 s of its prompt", name, c.sessionFile())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return c
}

// promptShown is true once Claude's input box and footer are drawn.
func promptShown(screen string) bool {
	return strings.Contains(screen, "for shortcuts") && strings.Contains(screen, "❯")
}

// claudeSession is Claude Code's own ~/.claude/sessions/<pid>.json.
type claudeSession struct {
	PID        int    `json:"pid"`
	SessionID  string `json:"sessionId"`
	CWD        string `json:"cwd"`
	Status     string `json:"status"`
	WaitingFor string `json:"waitingFor"`
}

func (c *claudeProc) sessionFile() string {
	return filepath.Join(c.r.home, ".claude", "sessions", strconv.Itoa(c.pane.pid)+".json")
}

// claudeState reads what Claude itself says about its session: the ground
// truth the HUD is checked against.
func (c *claudeProc) claudeState() (claudeSession, error) {
	var cs claudeSession
	data, err := os.ReadFile(c.sessionFile())
	if err != nil {
		return cs, err
	}
	err = json.Unmarshal(data, &cs)
	return cs, err
}

// sessionID is the session id Claude itself reports now ("" before it
// wrote its file).
func (c *claudeProc) sessionID() string {
	cs, err := c.claudeState()
	if err != nil {
		return ""
	}
	return cs.SessionID
}

// submit types text into Claude's prompt, waits until it shows, and
// presses Enter. It returns the moment of the Enter keystroke.
func (c *claudeProc) submit(text string) time.Time {
	c.r.t.Helper()
	if err := c.pane.typeText(text); err != nil {
		c.r.t.Fatal(err)
	}
	if screen, ok := c.pane.waitScreen(5*time.Second, func(s string) bool { return strings.Contains(s, "❯ "+text) }); !ok {
		c.r.t.Fatalf("%s: the typed text %q never showed in the prompt; screen:\n%s", c.name, text, lastLines(screen, 20))
	}
	return c.press("Enter")
}

// press sends one key and returns the moment it was sent.
func (c *claudeProc) press(key string) time.Time {
	c.r.t.Helper()
	at := time.Now()
	if err := c.pane.keys(key); err != nil {
		c.r.t.Fatal(err)
	}
	return at
}

// waitScreen waits for Claude's screen to show something (the CLI's side of
// a step: a dialog, an answer), failing the test when it does not.
func (c *claudeProc) waitScreen(what string, timeout time.Duration, ok func(string) bool) time.Time {
	c.r.t.Helper()
	screen, shown := c.pane.waitScreen(timeout, ok)
	if !shown {
		c.r.t.Fatalf("%s: the Claude Code CLI did not show %s within %v; screen:\n%s\nstand-in log:\n%s",
			c.name, what, timeout, lastLines(screen, 25), c.r.s.apiLog.tail(8))
	}
	return time.Now()
}

// waitExit waits for the process to be gone and returns when it was seen gone.
func (c *claudeProc) waitExit(timeout time.Duration) time.Time {
	c.r.t.Helper()
	deadline := time.Now().Add(timeout)
	for processAlive(c.pane.pid) {
		if time.Now().After(deadline) {
			c.r.t.Fatalf("%s (pid %d) still runs %v later; screen:\n%s", c.name, c.pane.pid, timeout, lastLines(c.pane.capture(), 20))
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Now()
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

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
