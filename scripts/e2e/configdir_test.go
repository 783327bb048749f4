package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/proc"
)

// TestSecondConfigDir: two Claudes, one with ~/.claude and one with
// CLAUDE_CONFIG_DIR=~/.claude-work (two accounts), each wired by `hud
// install` (the second with --config-dir): two sessions, each with its own
// lock in its own config dir's sessions/, each ready and working on its
// own.
func TestSecondConfigDir(t *testing.T) {
	r := newRig(t, "api", "web")
	work := r.addConfigDir(".claude-work")

	a, aid := r.startReady("api", r.dir("api"))
	b := r.launchIn("web", r.dir("web"), work)
	bid := b.awaitPrompt()
	r.expect("two config dirs → two sessions", time.Now(), alreadySet, stepLimit,
		all("both listed, ready", showing(aid, "ready"), showing(bid, "ready")))
	r.expect("… each with its own lock", time.Now(), alreadySet, stepLimit, want{
		desc: "a lock in each config dir's sessions/",
		ok: func(hudStatus) bool {
			return lockIn(filepath.Join(r.home, ".claude"), a.pane.pid) && lockIn(work, b.pane.pid) &&
				!lockIn(work, a.pane.pid) && !lockIn(filepath.Join(r.home, ".claude"), b.pane.pid)
		},
	})

	at := b.submit("SLOW:3")
	r.expect("second config dir: prompt → working", at, "Enter", stepLimit,
		all("web working, api ready", workingOn(bid, "SLOW:3"), showing(aid, "ready")))
	end := b.turnEnd(at, 15*time.Second)
	r.expect("second config dir: turn ends → ready", end, turnDone, stepLimit, showing(bid, "ready"))

	at = a.submit("SLOW:2")
	r.expect("first config dir: prompt → working", at, "Enter", stepLimit,
		all("api working, web ready", workingOn(aid, "SLOW:2"), showing(bid, "ready")))
	end = a.turnEnd(at, 15*time.Second)
	r.expect("first config dir: turn ends → ready", end, turnDone, stepLimit, showing(aid, "ready"))

	// Claude's own name for the session (newer releases keep it in their
	// session file): shown beside the project.
	at = b.submit("/rename nightly build")
	r.expect("/rename → named", at, "Enter", stepLimit, named(bid, "nightly build"))

	// The second session's permission dialog, found through Claude's own
	// file in its config dir as well as the hooks.
	command := "touch second.txt"
	b.submit("TOOL:" + command)
	shown := b.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	r.expect("second config dir: Bash needs permission → waiting", shown, "dialog on screen", stepLimit, waitingOn(bid, command))
	at = b.answer(shown, "Enter")
	end = b.turnEnd(at, 15*time.Second)
	r.expect("second config dir: approved, turn ends → ready", end, turnDone, stepLimit, showing(bid, "ready"))
}

// TestHooksOnlyInProject: hud's hook wired only in the project's
// .claude/settings.json (`hud install --project`), none in the user's
// settings. Before any session the state cannot be trusted (hooks_problem
// says why, and the tray shows its unsure icon); once the session's events
// arrive it shows its state as it is, with no doubt.
func TestHooksOnlyInProject(t *testing.T) {
	s := needSuite(t)
	s.preflight(t)
	r := makeRig(t, s, "api")
	r.install("--project", r.dir("api"))
	r.hooked = true

	if st := r.status(); st.err != nil || st.HooksProblem != "Hooks not installed" {
		t.Errorf("no session yet, no user-wide hooks: hooks_problem %q (%v), want \"Hooks not installed\"", st.HooksProblem, st.err)
	}
	c, id := r.startReady("api", r.dir("api"))
	r.expect("… no doubt once events arrive", time.Now(), alreadySet, stepLimit, trusted(id, "ready"))
	at := c.submit("SLOW:2")
	r.expect("prompt → working, no doubt", at, "Enter", stepLimit, trusted(id, "working"))
	end := c.turnEnd(at, 15*time.Second)
	r.expect("turn ends → ready, no doubt", end, turnDone, stepLimit, trusted(id, "ready"))
}

// TestBackgroundSession: `claude --bg` runs a session with no terminal,
// in a daemon Claude Code starts (listed by `claude agents`). It is listed
// like any other session: working while its turn runs, ready after.
func TestBackgroundSession(t *testing.T) {
	// 2.1.197's background worker submits the prompt (its hooks fire) but
	// never sends it to the stand-in's ANTHROPIC_BASE_URL.
	needClient(t, "2.1.330", "a background session that reaches the stand-in API")
	r := newRig(t, "api")
	t.Cleanup(func() { r.stopBackground() })

	prompt := "SLOW:4 in the background"
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.s.claude, "--bg", prompt)
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir("api"), r.claudeEnv(), nil
	out, err := cmd.CombinedOutput()
	m := regexp.MustCompile(`backgrounded · ([0-9a-f]+)`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("claude --bg: %v\n%s", err, out)
	}
	short := string(m[1])
	var id string
	r.expect("claude --bg → listed, working", start, "claude --bg", 15*time.Second, want{
		desc: "a session of api working on the prompt, its id starting " + short,
		ok: func(st hudStatus) bool {
			for _, s := range st.Sessions {
				if strings.HasPrefix(s.SessionID, short) && s.State == "working" && s.WorkingOn == prompt && s.Project == "api" {
					id = s.SessionID
					return true
				}
			}
			return false
		},
	})
	if id == "" {
		return
	}
	r.expect("background turn ends → ready", time.Now(), "listed working", 20*time.Second, showing(id, "ready"))
}

// TestStatusLineTruth: with `hud install --statusline`, the line Claude
// Code draws under its prompt tells the truth while Claude works (a slow
// answer, a tool that runs after its approval) and while another session
// waits on a permission, read from the screen as a person reads it.
func TestStatusLineTruth(t *testing.T) {
	r := newRig(t, "api", "web")
	r.install("--statusline")

	a, _ := r.startReady("api", r.dir("api"))
	b, bid := r.startReady("web", r.dir("web"))
	b.expectLine("at the prompt", b.ready, "prompt on screen", "✓ ready")

	at := b.submit("SLOW:5")
	b.expectLine("prompt → working", at, "Enter", "● working")
	b.holdLine("… while the answer streams", "● working", func() bool { return b.idleSince(at) })
	b.expectLine("turn ends → ready", time.Now(), turnDone, "✓ ready")

	// web asks for a permission: its own line is hidden by the dialog,
	// api's says so; approved, the tool runs for 3 s with web working.
	command := "sleep 3 && touch line.txt"
	b.submit("TOOL:" + command)
	shown := b.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	r.expect("Bash needs permission → waiting", shown, "dialog on screen", stepLimit, waitingOn(bid, command))
	a.expectLine("the other session's line names it", shown, "dialog on screen", "web waiting (Bash: "+command)
	at = b.answer(shown, "Enter")
	b.expectLine("approved → working while the tool runs", at, "Enter", "● working")
	b.holdLine("… while the tool runs", "● working", func() bool { return b.idleSince(at) })
	b.expectLine("turn ends → ready", time.Now(), turnDone, "✓ ready")
	a.expectLine("the other session's line lets go", time.Now(), turnDone, "✓ ready")
}

// lineLimit is how long the status line may take to show a change: Claude
// Code re-runs it every refreshInterval (1 s, as `hud install` sets it),
// and the command itself takes milliseconds.
const lineLimit = 2500 * time.Millisecond

// addConfigDir makes a second Claude config directory under HOME as a
// person who keeps two accounts has one (onboarded, the projects trusted,
// manual permission mode), and wires it with `hud install --config-dir`.
func (r *rig) addConfigDir(name string) string {
	r.t.Helper()
	dir := filepath.Join(r.home, name)
	// With CLAUDE_CONFIG_DIR, Claude keeps its .claude.json inside it.
	config, err := os.ReadFile(filepath.Join(r.home, ".claude.json"))
	if err != nil {
		r.t.Fatal(err)
	}
	settings, err := os.ReadFile(filepath.Join(r.home, ".claude", "settings.json"))
	if err != nil {
		r.t.Fatal(err)
	}
	for file, data := range map[string][]byte{".claude.json": config, "settings.json": settings} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o600); err != nil {
			r.t.Fatal(err)
		}
	}
	r.install("--config-dir", dir)
	return dir
}

// install runs `hud install --hook <hook> args...` in the rig's HOME
// (the recording hook while recording).
func (r *rig) install(args ...string) {
	r.t.Helper()
	hook := r.s.hook
	if r.s.record != "" {
		hook = r.recorder()
	}
	cmd := exec.Command(r.s.hud, append([]string{"install", "--hook", hook}, args...)...)
	cmd.Env = r.baseEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("hud install %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// lockIn reports whether configDir/sessions holds a lock of process pid.
func lockIn(configDir string, pid int) bool {
	matches, _ := filepath.Glob(filepath.Join(configDir, "sessions", "*-"+strconv.Itoa(pid)+".lock"))
	return len(matches) == 1
}

// named: the session is listed under Claude's name for it.
func named(sessionID, name string) want {
	return want{
		id:   sessionID,
		desc: fmt.Sprintf("name %q", name),
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			return ok && s.Name == name
		},
	}
}

// trusted: the session is listed in state, and hud status --json has no
// doubt about the hooks.
func trusted(sessionID, state string) want {
	w := showing(sessionID, state)
	return want{
		id:   sessionID,
		desc: state + ", hooks_problem empty",
		ok:   func(st hudStatus) bool { return w.ok(st) && st.HooksProblem == "" },
	}
}

// statusLine is the status line Claude draws under its prompt box: the
// first line below the box's lower border that holds text.
func statusLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	borders := 0
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "────") {
			borders++
			if borders == 1 {
				for _, l := range lines[i+1:] {
					if t := strings.TrimSpace(l); t != "" {
						return t
					}
				}
				return ""
			}
		}
	}
	return ""
}

// expectLine waits until the status line on c's screen holds text, at
// most lineLimit after from, and records the wait in the latency table.
func (c *claudeProc) expectLine(step string, from time.Time, fromWhat, text string) bool {
	r := c.r
	r.t.Helper()
	step = c.name + ": status line: " + step
	for {
		line := statusLine(c.pane.capture())
		wait := time.Since(from)
		if strings.Contains(line, text) && wait <= lineLimit {
			r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: fmt.Sprintf("line %q", text), from: fromWhat, wait: wait, limit: lineLimit, ok: true})
			r.t.Logf("%-40s %-45s %6.0f ms", step, fmt.Sprintf("line %q", text), float64(wait)/float64(time.Millisecond))
			return true
		}
		if wait > lineLimit {
			r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: fmt.Sprintf("line %q", text), from: fromWhat, wait: wait, limit: lineLimit, ok: false})
			r.t.Errorf("%s: the status line says %q, not %q, %v after %s; screen:\n%s", step, line, text, lineLimit, fromWhat, lastLines(c.pane.capture(), 12))
			return false
		}
		time.Sleep(pollEvery)
	}
}

// holdLine checks that the status line keeps holding text until done.
func (c *claudeProc) holdLine(step, text string, done func() bool) bool {
	r := c.r
	r.t.Helper()
	step = c.name + ": status line: " + step
	from := time.Now()
	polls := 0
	for !done() {
		screen := c.pane.capture()
		if line := statusLine(screen); !strings.Contains(line, text) && !done() {
			r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: fmt.Sprintf("line %q throughout", text), from: "the line showed it", wait: time.Since(from), limit: time.Minute, ok: false})
			r.t.Errorf("%s: the status line says %q, not %q, %v in; screen:\n%s", step, line, text, time.Since(from).Round(time.Millisecond), lastLines(screen, 12))
			return false
		}
		polls++
		time.Sleep(pollEvery)
	}
	held := time.Since(from)
	r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: fmt.Sprintf("line %q throughout", text), from: "the line showed it", wait: held, limit: time.Minute, ok: true, held: true})
	r.t.Logf("%-40s %-45s held %6.0f ms over %d polls", step, fmt.Sprintf("line %q", text), float64(held)/float64(time.Millisecond), polls)
	return true
}

// idleSince reports whether Claude's own file says idle, set after since.
func (c *claudeProc) idleSince(since time.Time) bool {
	cs, err := c.claudeState()
	return err == nil && cs.Status == "idle" && time.UnixMilli(cs.StatusUpdatedAt).After(since)
}

// stopBackground ends what `claude --bg` left running: its background
// sessions and the daemon that runs them (`claude daemon stop --any`),
// then anything of the daemon's process tree still there.
func (r *rig) stopBackground() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.s.claude, "daemon", "stop", "--any")
	cmd.Env = r.claudeEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		r.t.Logf("claude daemon stop --any: %v: %s", err, strings.TrimSpace(out.String()))
	}
	for pid, cmdline := range processesMentioning(r.root) {
		if strings.Contains(cmdline, "daemon") {
			killTree(pid)
		}
	}
}

// killTree kills pid and every process below it.
func killTree(pid int) {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if p, err := strconv.Atoi(e.Name()); err == nil {
			if proc, err := proc.Inspect(p); err == nil {
				children[proc.PPID] = append(children[proc.PPID], p)
			}
		}
	}
	var walk func(int)
	walk = func(p int) {
		_ = syscall.Kill(p, syscall.SIGKILL)
		for _, c := range children[p] {
			walk(c)
		}
	}
	walk(pid)
}
