package agents

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/tmux"
)

// stepLimit bounds how long a step may take to show in `hud status`: the
// hook writes within milliseconds of the agent's event, but two cores
// shared with other work can slow an agent's start, and opencode's first
// turn takes it over 10 s (each step's time is logged).
const stepLimit = 30 * time.Second

// startLimit bounds an agent's start to its prompt: a node CLI's first
// start on two busy cores takes several times a step.
const startLimit = 60 * time.Second

// rig is one scenario: its temp HOME and project, and the agents it runs.
type rig struct {
	t       *testing.T
	s       *suite
	agent   string
	version string
	home    string
	project string
	// hook is the hud-hook `hud install` wires: the real one, or a
	// recorder in front of it (HUD_AGENTS_RECORD).
	hook     string
	recorded string // where the recorder writes, "" when not recording
	apiMark  int
	panes    []*tmux.Pane
}

func newRig(t *testing.T, s *suite, agent, version string) *rig {
	home := t.TempDir()
	if s.keep {
		var err error
		if home, err = os.MkdirTemp("", "hud-agents-"+t.Name()+"-"); err != nil {
			t.Fatal(err)
		}
		t.Logf("HOME kept: %s", home)
	}
	r := &rig{t: t, s: s, agent: agent, version: version, home: home,
		project: filepath.Join(home, "api"), hook: s.hook}
	_, r.apiMark = s.apiLog.since(1 << 30)
	if err := os.MkdirAll(r.project, 0o755); err != nil {
		t.Fatal(err)
	}
	if s.record != "" {
		r.setUpRecorder()
	}
	t.Cleanup(r.cleanUp)
	return r
}

// setUpRecorder puts a hud-hook in front of the real one that first
// saves its stdin: it must be named hud-hook, which is how install and
// uninstall know hud's entries.
func (r *rig) setUpRecorder() {
	r.recorded = filepath.Join(r.home, "recorded")
	bin := filepath.Join(r.home, "recorder")
	for _, d := range []string{r.recorded, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			r.t.Fatal(err)
		}
	}
	// The name keeps the event the hook command names (hud-hook <agent>
	// <event>), which some agents' payloads do not carry.
	script := fmt.Sprintf("#!/bin/sh\ntee \"%s/$(date +%%s%%N)-$2.json\" | exec '%s' \"$@\"\n", r.recorded, r.s.hook)
	r.hook = filepath.Join(bin, "hud-hook")
	if err := os.WriteFile(r.hook, []byte(script), 0o755); err != nil {
		r.t.Fatal(err)
	}
}

// hud runs the hud binary with the rig's HOME.
func (r *rig) hud(args ...string) (string, error) {
	cmd := exec.Command(r.s.hud, args...)
	cmd.Env = append(os.Environ(), "HOME="+r.home, "XDG_CONFIG_HOME=", "CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "COPILOT_HOME=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// session is what a step checks of `hud status --json`.
type session struct {
	SessionID  string `json:"session_id"`
	Agent      string `json:"agent"`
	State      string `json:"state"`
	CWD        string `json:"cwd"`
	WorkingOn  string `json:"working_on"`
	WaitingFor string `json:"waiting_for"`
	PID        *int   `json:"pid"`
	Source     string `json:"source"`
}

// sessions runs `hud status --json` and returns the rig agent's sessions.
func (r *rig) sessions() ([]session, string) {
	out, err := r.hud("status", "--json")
	if err != nil {
		return nil, fmt.Sprintf("hud status: %v: %s", err, out)
	}
	var doc struct {
		Sessions []session `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		return nil, fmt.Sprintf("hud status printed no JSON: %v: %s", err, out)
	}
	var mine []session
	for _, s := range doc.Sessions {
		if s.Agent == r.agent {
			mine = append(mine, s)
		}
	}
	return mine, out
}

// expect polls `hud status --json` until ok accepts the agent's sessions,
// and fails the test with everything a person needs to see why when
// stepLimit passes first.
func (r *rig) expect(step string, ok func([]session) bool) []session {
	r.t.Helper()
	start := time.Now()
	for {
		got, raw := r.sessions()
		if ok(got) {
			r.t.Logf("%-40s ok after %v", step, time.Since(start).Round(time.Millisecond))
			return got
		}
		if time.Since(start) > stepLimit {
			r.t.Fatalf("%s: not seen within %v\nhud status --json:\n%s\n%s", step, stepLimit, raw, r.diagnostics())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// expectNoLocks waits for every lock directory to go: the lock holder
// removes a session's lock once the agent's process has exited, which
// comes after the session's end is recorded.
func (r *rig) expectNoLocks(step string) {
	r.t.Helper()
	start := time.Now()
	for {
		locks, _ := filepath.Glob(filepath.Join(r.home, ".claude", "sessions", "*.lock"))
		if len(locks) == 0 {
			r.t.Logf("%-40s ok after %v", step, time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Since(start) > stepLimit {
			r.t.Fatalf("%s: locks left after %v: %v\n%s", step, stepLimit, locks, r.diagnostics())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// one accepts exactly one session in state, with check (if any) passing.
func one(state string, check func(session) bool) func([]session) bool {
	return func(ss []session) bool {
		return len(ss) == 1 && ss[0].State == state && (check == nil || check(ss[0]))
	}
}

// none accepts no session of the agent.
func none(ss []session) bool { return len(ss) == 0 }

// diagnostics is what a failed step prints: the screens, the hook's debug
// log, the stand-in's log.
func (r *rig) diagnostics() string {
	var b strings.Builder
	for i, p := range r.panes {
		screen := p.Capture()
		if p.Dead() {
			screen = p.History(200)
		}
		fmt.Fprintf(&b, "--- screen %d (pane %s):\n%s\n", i+1, p.ID, tmux.LastLines(screen, 40))
	}
	stderrs, _ := filepath.Glob(filepath.Join(r.home, "*.stderr"))
	for _, f := range stderrs {
		if out, err := os.ReadFile(f); err == nil && len(out) > 0 {
			fmt.Fprintf(&b, "--- %s:\n%s\n", filepath.Base(f), tmux.LastLines(string(out), 30))
		}
	}
	if log, err := os.ReadFile(filepath.Join(r.home, ".claude", "hud-hook-debug.log")); err == nil {
		fmt.Fprintf(&b, "--- hud-hook-debug.log (last lines):\n%s\n", tmux.LastLines(string(log), 20))
	}
	lines, _ := r.s.apiLog.since(r.apiMark)
	fmt.Fprintf(&b, "--- stand-in:\n%s\n", strings.Join(lines, "\n"))
	return b.String()
}

// start runs command in a new tmux window in the project.
func (r *rig) start(name, command string) *tmux.Pane {
	p, err := r.s.tmux.NewWindow(name, r.project, command)
	if err != nil {
		r.t.Fatal(err)
	}
	r.panes = append(r.panes, p)
	return p
}

// waitScreen waits for the screen to show what, and fails the test if it
// does not within stepLimit.
func (r *rig) waitScreen(p *tmux.Pane, what string) {
	r.t.Helper()
	r.waitScreenWithin(p, what, stepLimit)
}

// waitScreenWithin is waitScreen with its own limit.
func (r *rig) waitScreenWithin(p *tmux.Pane, what string, limit time.Duration) {
	r.t.Helper()
	if _, ok := p.WaitScreen(limit, func(s string) bool { return strings.Contains(s, what) }); !ok {
		r.t.Fatalf("the screen never showed %q\n%s", what, r.diagnostics())
	}
}

// say types text into the agent's prompt, as a person does, and sends it
// once the prompt shows it (keys sent while the prompt redraws are lost).
func (r *rig) say(p *tmux.Pane, text string) {
	r.t.Helper()
	if err := p.Type(text); err != nil {
		r.t.Fatal(err)
	}
	r.waitScreen(p, text)
	time.Sleep(150 * time.Millisecond)
	if err := p.Keys("Enter"); err != nil {
		r.t.Fatal(err)
	}
}

// keys sends tmux key names.
func (r *rig) keys(p *tmux.Pane, keys ...string) {
	r.t.Helper()
	if err := p.Keys(keys...); err != nil {
		r.t.Fatal(err)
	}
}

// cleanUp ends the rig's agents and, when recording, files the payloads.
func (r *rig) cleanUp() {
	for _, p := range r.panes {
		p.Close()
	}
	// Each lock holder removes its lock once its agent is gone: the last
	// write into HOME, which t.TempDir removes next ("directory not
	// empty" when it lands in between, seen with Gemini under load).
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if locks, _ := filepath.Glob(filepath.Join(r.home, ".claude", "sessions", "*.lock")); len(locks) == 0 {
			break
		}
	}
	if r.recorded != "" && !r.t.Failed() {
		if err := r.file(); err != nil {
			r.t.Errorf("filing the recorded payloads: %v", err)
		}
	}
	if r.t.Failed() {
		r.t.Logf("HOME: %s", r.home)
	}
}

// file copies the recorded payloads into
// $HUD_AGENTS_RECORD/<agent>-<version>/<scenario>/NN-<event>.json, in the
// order they arrived, with the rig's temp paths made stable.
func (r *rig) file() error {
	entries, err := os.ReadDir(r.recorded)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names) // nanosecond stamps of equal width
	scenario := strings.TrimPrefix(r.t.Name(), "Test")
	dir := filepath.Join(r.s.record, r.agent+"-"+r.version, strings.ToLower(scenario))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, name := range names {
		b, err := os.ReadFile(filepath.Join(r.recorded, name))
		if err != nil {
			return err
		}
		var ev struct {
			Event string `json:"hook_event_name"`
		}
		json.Unmarshal(b, &ev)
		b = bytes.ReplaceAll(b, []byte(r.home), []byte("/home/u"))
		_, named, _ := strings.Cut(strings.TrimSuffix(name, ".json"), "-")
		out := fmt.Sprintf("%02d-%s.json", i+1, cmp.Or(named, ev.Event, "event"))
		if err := os.WriteFile(filepath.Join(dir, out), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// answer presses key at the dialog that shows what, again while it stays
// up: a key sent while the dialog still draws is lost. (opencode's
// permission dialog: Enter allows once, Esc rejects; its other options
// are chosen by arrow keys whose effect the screen shows only as colour.)
func (r *rig) answer(p *tmux.Pane, key, what string) {
	r.t.Helper()
	for range 5 {
		r.keys(p, key)
		if _, gone := p.WaitScreen(2*time.Second, func(s string) bool { return !strings.Contains(s, what) }); gone {
			return
		}
	}
	r.t.Fatalf("%q is still up after %s 5 times\n%s", what, key, r.diagnostics())
}
