package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// hudStatus is `hud status --json`.
type hudStatus struct {
	State    string       `json:"state"`
	Sessions []hudSession `json:"sessions"`
	Resolved *hudResolved `json:"resolved"` // with --project
	Project  string       `json:"project"`
	// HooksProblem is why the tray would show its unsure icon about the
	// hooks; "" when the state can be trusted.
	HooksProblem string          `json:"hooks_problem"`
	raw          json.RawMessage // as printed, for failure reports
	err          error           // the command failed or printed no JSON
}

type hudSession struct {
	SessionID  string `json:"session_id"`
	State      string `json:"state"`
	CWD        string `json:"cwd"`
	ProjectDir string `json:"project_dir"`
	Project    string `json:"project"`
	Name       string `json:"name"` // Claude's name for the session
	WorkingOn  string `json:"working_on"`
	WaitingFor string `json:"waiting_for"`
	PID        int    `json:"pid"`
	Since      string `json:"since"`
	Source     string `json:"source"`
	// Activity is what the session has done; nil before the
	// hook recorded anything.
	Activity *hudActivity `json:"activity"`
}

type hudActivity struct {
	TodosDone   int    `json:"todos_done"`
	TodosTotal  int    `json:"todos_total"`
	FilesEdited int    `json:"files_edited"`
	Branch      string `json:"branch"`
	Dirty       bool   `json:"dirty"`
	Commits     int    `json:"commits"`
}

type hudResolved struct {
	State      string `json:"state"`
	IsFromLock bool   `json:"is_from_lock"`
	SessionID  string `json:"session_id"`
	CWD        string `json:"cwd"`
	Match      string `json:"match"`
}

func (st hudStatus) session(id string) (hudSession, bool) {
	for _, s := range st.Sessions {
		if s.SessionID == id {
			return s, true
		}
	}
	return hudSession{}, false
}

// status runs `hud status --json [args]` with the rig's HOME.
func (r *rig) status(args ...string) hudStatus {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.s.hud, append([]string{"status", "--json"}, args...)...)
	cmd.Env = r.baseEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	st := hudStatus{raw: json.RawMessage(bytes.TrimSpace(out))}
	if err != nil {
		st.err = fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(stderr.String()))
		return st
	}
	if err := json.Unmarshal(out, &st); err != nil {
		st.err = fmt.Errorf("hud status --json printed no JSON object: %w", err)
	}
	return st
}

// want is a state a step expects `hud status --json` to show.
type want struct {
	id   string // the session the step is about, for the failure report
	desc string
	args []string // extra `hud status` arguments (--project PATH)
	ok   func(hudStatus) bool
}

// showing: the session is listed in state.
func showing(sessionID, state string) want {
	return want{
		id:   sessionID,
		desc: state,
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			return ok && s.State == state
		},
	}
}

// waitingOn: the session waits, and waiting_for names the command.
func waitingOn(sessionID, command string) want {
	return want{
		id:   sessionID,
		desc: fmt.Sprintf("waiting, waiting_for names %q", command),
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			return ok && s.State == "waiting" && strings.Contains(s.WaitingFor, command)
		},
	}
}

// changedSince: the session's state changed after t (so a step that ends
// in the state it began with is still seen to have happened).
func changedSince(sessionID string, t time.Time) want {
	return want{
		id:   sessionID,
		desc: "state changed after " + t.Format("15:04:05.000"),
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			if !ok {
				return false
			}
			since, err := time.Parse(time.RFC3339Nano, s.Since)
			return err == nil && since.After(t)
		},
	}
}

// inDir: the session's cwd is dir.
func inDir(sessionID, dir string) want {
	return want{
		id:   sessionID,
		desc: "cwd " + dir,
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			return ok && s.CWD == dir
		},
	}
}

// workingOn: the session works on text (its prompt's first line).
func workingOn(sessionID, text string) want {
	return want{
		id:   sessionID,
		desc: fmt.Sprintf("working on %q", text),
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			return ok && s.State == "working" && s.WorkingOn == text
		},
	}
}

// inProject: the session's project_dir is dir, and its project name dir's
// base name.
func inProject(sessionID, dir string) want {
	return want{
		id:   sessionID,
		desc: "project_dir " + filepath.Base(dir),
		ok: func(st hudStatus) bool {
			s, ok := st.session(sessionID)
			return ok && s.ProjectDir == dir && s.Project == filepath.Base(dir)
		},
	}
}

// gone: the session is not listed.
func gone(sessionID string) want {
	return want{
		id:   sessionID,
		desc: "gone",
		ok: func(st hudStatus) bool {
			_, listed := st.session(sessionID)
			return st.err == nil && !listed
		},
	}
}

// onlySession: exactly one session is listed, this one, in state.
func onlySession(sessionID, state string) want {
	return want{
		id:   sessionID,
		desc: "only the new id, " + state,
		ok: func(st hudStatus) bool {
			return len(st.Sessions) == 1 && st.Sessions[0].SessionID == sessionID && st.Sessions[0].State == state
		},
	}
}

// all: every want at once (one `hud status` run).
func all(desc string, ws ...want) want {
	return want{
		desc: desc,
		ok: func(st hudStatus) bool {
			for _, w := range ws {
				if !w.ok(st) {
					return false
				}
			}
			return true
		},
	}
}

// resolves: `hud status --json --project path` resolves to the session
// (called who in the table), in state, by match (exact, child, parent);
// sessionID "" means null.
func resolves(path, who, sessionID, state, match string) want {
	desc := fmt.Sprintf("resolved: %s, %s, %s match", who, state, match)
	if sessionID == "" {
		desc = "resolved: null"
	}
	return want{
		id:   sessionID,
		desc: desc,
		args: []string{"--project", path},
		ok: func(st hudStatus) bool {
			if st.err != nil {
				return false
			}
			if sessionID == "" {
				return st.Resolved == nil
			}
			r := st.Resolved
			return r != nil && r.SessionID == sessionID && r.State == state && r.Match == match
		},
	}
}

// pollEvery is how often expect asks `hud status`.
const pollEvery = 20 * time.Millisecond

// expect polls `hud status --json` until it shows w or limit has passed
// since from, records the wait in the latency table, and on a miss fails
// the test with everything needed to tell whose fault it is.
func (r *rig) expect(step string, from time.Time, fromWhat string, limit time.Duration, w want) bool {
	r.t.Helper()
	wait, st, ok := r.await(from, limit, w)
	r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: w.desc, from: fromWhat, wait: wait, limit: limit, ok: ok})
	if ok {
		r.t.Logf("%-40s %-45s %6.0f ms", step, w.desc, float64(wait)/float64(time.Millisecond))
		return true
	}
	r.t.Errorf("%s", r.failureReport(step, w, from, limit, fromWhat, st))
	return false
}

// await polls `hud status --json` until it shows w or limit has passed
// since from, and returns how long after from it was seen (or gave up)
// and the last status read.
func (r *rig) await(from time.Time, limit time.Duration, w want) (time.Duration, hudStatus, bool) {
	deadline := from.Add(limit)
	for {
		st := r.status(w.args...)
		// The wait counts up to the end of the poll that saw the state: an
		// upper bound, never flattering.
		wait := time.Since(from)
		if w.ok(st) && wait <= limit {
			return wait, st, true
		}
		if time.Now().After(deadline) {
			return wait, st, false
		}
		time.Sleep(pollEvery)
	}
}

// expectThroughout polls `hud status --json` from now until done says the
// stretch is over (at most limit), and fails at the first poll that does not
// show w: a state that must hold while the CLI fires events that must not
// change it. The table records how long it held.
func (r *rig) expectThroughout(step, fromWhat string, limit time.Duration, done func() bool, w want) bool {
	r.t.Helper()
	from := time.Now()
	polls := 0
	for !done() {
		st := r.status(w.args...)
		polls++
		if !w.ok(st) || time.Since(from) > limit {
			r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: w.desc + " throughout", from: fromWhat, wait: time.Since(from), limit: limit, ok: false})
			r.t.Errorf("%s", r.failureReport(step+" (held "+time.Since(from).Round(time.Millisecond).String()+")", w, from, limit, fromWhat, st))
			return false
		}
		time.Sleep(pollEvery)
	}
	held := time.Since(from)
	r.s.latency.add(checkpoint{scenario: r.t.Name(), step: step, want: w.desc + " throughout", from: fromWhat, wait: held, limit: limit, ok: true, held: true})
	r.t.Logf("%-40s %-45s held %6.0f ms over %d polls", step, w.desc, float64(held)/float64(time.Millisecond), polls)
	return true
}

// failureReport names the step, the state expected and the state seen, and
// shows what the real CLI said and did: its own session files, its screen,
// the hook's debug log, the stand-in's log.
func (r *rig) failureReport(step string, w want, from time.Time, limit time.Duration, fromWhat string, st hudStatus) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n=== FAILED STEP: %s\n", step)
	fmt.Fprintf(&b, "expected (within %v of %s at %s): %s %s\n", limit, fromWhat, from.Format("15:04:05.000"), w.id, w.desc)
	fmt.Fprintf(&b, "load average: %s\n", loadAverage())
	fmt.Fprintf(&b, "seen: `%s`:\n", strings.Join(append([]string{"hud", "status", "--json"}, w.args...), " "))
	if st.err != nil {
		fmt.Fprintf(&b, "  error: %v\n", st.err)
	}
	fmt.Fprintf(&b, "%s\n", indentJSON(st.raw))
	b.WriteString("--- what Claude Code itself says (~/.claude/sessions/<pid>.json):\n")
	for _, c := range r.procs {
		cs, err := c.claudeState()
		alive := processAlive(c.pane.pid)
		switch {
		case err != nil:
			fmt.Fprintf(&b, "  %s pid %d (alive %v): %v\n", c.name, c.pane.pid, alive, err)
		default:
			changed := time.UnixMilli(cs.StatusUpdatedAt)
			fmt.Fprintf(&b, "  %s pid %d (alive %v): session %s status %q %s since %s (%+d ms from %s) cwd %s\n",
				c.name, c.pane.pid, alive, cs.SessionID, cs.Status, cs.WaitingFor,
				changed.Format("15:04:05.000"), changed.Sub(from).Milliseconds(), fromWhat, cs.CWD)
		}
	}
	fmt.Fprintf(&b, "--- last 20 lines of %s:\n%s\n", "~/.claude/hud-hook-debug.log", r.hookLogTail(20))
	fmt.Fprintf(&b, "--- store (~/.capacitor/sessions.json):\n%s\n", r.fileOrError(filepath.Join(r.home, ".capacitor", "sessions.json")))
	fmt.Fprintf(&b, "--- locks (~/.claude/sessions/):\n%s\n", r.listLocks())
	for _, c := range r.procs {
		fmt.Fprintf(&b, "--- tmux pane of %s (pid %d):\n%s\n", c.name, c.pane.pid, lastLines(c.pane.capture(), 25))
	}
	fmt.Fprintf(&b, "--- stand-in API, last lines:\n%s\n", r.s.apiLog.tail(6))
	return b.String()
}

func (r *rig) hookLogTail(n int) string {
	data, err := os.ReadFile(filepath.Join(r.home, ".claude", "hud-hook-debug.log"))
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return lastLines(string(data), n)
}

func (r *rig) fileOrError(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return string(data)
}

func (r *rig) listLocks() string {
	dir := filepath.Join(r.home, ".claude", "sessions")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			meta, _ := os.ReadFile(filepath.Join(dir, name, "meta.json"))
			name += " " + strings.TrimSpace(string(meta))
		}
		names = append(names, "  "+name)
	}
	slices.Sort(names)
	return strings.Join(names, "\n")
}

func indentJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "  (nothing printed)"
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "  ", "  "); err != nil {
		return "  " + string(raw)
	}
	return "  " + out.String()
}
