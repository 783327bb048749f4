package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// claudeEnv adds what points Claude Code at the stand-in and keeps it
// quiet: no updater, no telemetry, no other traffic.
func (r *rig) claudeEnv() []string {
	env := append(r.baseEnv(),
		"ANTHROPIC_BASE_URL="+r.s.apiURL,
		"ANTHROPIC_API_KEY="+apiKey,
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	)
	return append(env, r.env...)
}

// claudeProc is one Claude Code process in its tmux pane.
type claudeProc struct {
	r     *rig
	name  string
	pane  *pane
	ready time.Time // when its prompt showed (interactive only)
	// configDir is the CLAUDE_CONFIG_DIR it runs with; "" for ~/.claude.
	configDir string
	// answered is when the rig answered a startup question.
	answered time.Time
}

// launch starts claude with args in dir. The pane runs it with exec, so the
// pane's pid is Claude's.
func (r *rig) launch(name, dir string, args ...string) *claudeProc {
	r.t.Helper()
	return r.launchIn(name, dir, "", args...)
}

// launchIn is launch with CLAUDE_CONFIG_DIR set to configDir ("" leaves
// it unset: ~/.claude).
func (r *rig) launchIn(name, dir, configDir string, args ...string) *claudeProc {
	r.t.Helper()
	// env -i: only claudeEnv, plus the terminal variables tmux gives the pane.
	words := []string{"exec", "env", "-i", `TERM="$TERM"`, `TMUX="$TMUX"`, `TMUX_PANE="$TMUX_PANE"`}
	env := r.claudeEnv()
	if configDir != "" {
		env = append(env, "CLAUDE_CONFIG_DIR="+configDir)
	}
	for _, kv := range env {
		words = append(words, shellQuote(kv))
	}
	words = append(words, shellQuote(r.s.claude))
	for _, a := range args {
		words = append(words, shellQuote(a))
	}
	c := &claudeProc{r: r, name: name, configDir: configDir}
	p, err := r.s.tmux.newWindow(name, dir, strings.Join(words, " "))
	if err != nil {
		r.t.Fatalf("starting %s: %v", name, err)
	}
	c.pane = p
	r.procs = append(r.procs, c)
	return c
}

// claudeSession is Claude Code's own ~/.claude/sessions/<pid>.json.
type claudeSession struct {
	PID        int    `json:"pid"`
	SessionID  string `json:"sessionId"`
	CWD        string `json:"cwd"`
	Status     string `json:"status"`
	WaitingFor string `json:"waitingFor"`
	// StatusUpdatedAt is when Status last changed, in Unix milliseconds.
	StatusUpdatedAt int64 `json:"statusUpdatedAt"`
}

func (c *claudeProc) sessionFile() string {
	dir := c.configDir
	if dir == "" {
		dir = filepath.Join(c.r.home, ".claude")
	}
	return filepath.Join(dir, "sessions", strconv.Itoa(c.pane.pid)+".json")
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

// readingTime is how long a person takes to read a dialog before
// answering it. Claude Code 2.1.330 ignores keys for about 100 ms after a
// permission dialog opens, so that a key typed for the prompt does not
// answer a dialog the person never saw: a rig that answers at once is
// ignored.
const readingTime = 400 * time.Millisecond

// answer presses key in reply to a dialog shown at shown, once a person
// would have read it, and returns the moment of the key.
func (c *claudeProc) answer(shown time.Time, key string) time.Time {
	c.r.t.Helper()
	time.Sleep(time.Until(shown.Add(readingTime)))
	return c.press(key)
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

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
