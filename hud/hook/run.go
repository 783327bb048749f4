package hook

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
	"github.com/capacitor-hud/hud/resolver"
)

// Limits that keep the hook from hurting the Claude session that runs it.
const (
	// maxInput bounds stdin; real events are a few KiB (a PostToolUse
	// carries the tool's output, which Claude Code itself truncates).
	maxInput = 1 << 20
	// runTimeout bounds a whole run: a stdin that never closes (the hook
	// run by hand in a terminal), a follow-up that hangs. A normal run
	// takes milliseconds and the store lock is given up after 2 s.
	runTimeout = 5 * time.Second
)

// Env is the outside world the hook touches. Whatever the hook prints on
// stdout Claude Code adds to the person's context (SessionStart,
// UserPromptSubmit), so only Context.Say, for a feature the person switched
// on, ever writes there.
type Env struct {
	Stdin io.Reader
	// Stdout receives only what a follow-up says through Context.Say, a
	// feature the person switched on; by default the hook prints nothing.
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Now    func() time.Time
	// Parent is the hook's parent process; the Claude process is found by
	// walking up from it past shells.
	Parent int
	// Executable is the path of the running binary, which the hook starts
	// again in a helper mode (the lock holder).
	Executable func() (string, error)
	// Getwd is the hook's own working directory, where Claude Code runs
	// it: the session's cwd when an event does not say.
	Getwd func() (string, error)
	// Sources are the coding agents `hud-hook <agent>` may name
	// (hud/agent/registry's).
	Sources []*Source
	// Record, when set, records the ledger while a lock holder holds
	// (cmd/hud-hook passes hud/ledger's recorder): ownPID is the holder's
	// agent process, logf its log.
	Record func(ctx context.Context, ownPID int, logf activity.Logger)
}

// OSEnv is the environment of the running process.
func OSEnv() Env {
	return Env{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Getenv:     os.Getenv,
		Now:        time.Now,
		Parent:     os.Getppid(),
		Executable: os.Executable,
		Getwd:      os.Getwd,
	}
}

// followUps run, in order, after the store is written. An error or a
// panic in one is logged to the debug log, and the next one still runs.
// Activity comes last: on Stop, PreCompact and a due checkpoint it starts
// the worker, whose Go start-up and git calls compete for the CPUs with
// whatever the hook still has to do (Claude waits for the hook, not for
// the worker).
var followUps = []followUp{
	{"lock holder", ensureLockHolder},
	{"breaks", trackBreaks},
	{"work session", trackWorkSession},
	{"tidy", tidyProject},
	{"activity", trackActivity},
}

// Main runs the binary and returns its exit status: a helper mode when the
// first argument names one, else the hook. The hook's status is 0 whatever
// happens, unless a follow-up blocks the action (2).
func Main(args []string, env Env) int {
	if len(args) > 0 {
		if m, ok := lookupMode(args[0]); ok {
			return m.run(args[1:], env)
		}
	}
	// The watchdog ends a run that hangs, whatever it hangs on; the store
	// is never half written (it is replaced by rename) and its lock goes
	// with the process.
	// Its log line names the event it dropped, once the event is known:
	// a run that gives up is never an update lost in silence.
	var running atomic.Pointer[runningEvent]
	watchdog := time.AfterFunc(runTimeout, func() {
		log := newDebugLog(paths.Layout{Home: env.Getenv("HOME")}, env)
		session, what := "", "gave up"
		if r := running.Load(); r != nil {
			session, what = r.session, r.event+": gave up"
		}
		log.errorf(session, "%s after %v: stdin never closed, or the run hung", what, runTimeout)
		log.flush()
		os.Exit(0)
	})
	defer watchdog.Stop()
	// Waiting for the tray's answer to a dialog is bounded by its own
	// setting; the watchdog then waits that much longer.
	extend := func(d time.Duration) { watchdog.Reset(d + runTimeout) }
	return runHook(args, env, &running, extend)
}

// ownConfigDir returns layout, without its config directory when that is
// not the person's (resolver.OwnConfigDir): a project's settings can set
// CLAUDE_CONFIG_DIR, and such a directory gets no lock and no record
// names it. The check costs a few lstat calls, and only when the variable
// names a directory other than ~/.claude.
func ownConfigDir(layout paths.Layout, log *debugLog) paths.Layout {
	if layout.Config == "" {
		return layout
	}
	if err := resolver.OwnConfigDir(layout.Config); err != nil {
		log.errorf("", "not using CLAUDE_CONFIG_DIR: %v", err)
		return layout.WithConfig("")
	}
	return layout
}

// runningEvent is the event a run handles, for the watchdog's log line.
type runningEvent struct{ session, event string }

// runHook handles one hook event: read, decode, look around, update the
// store, run the follow-ups, then answer Claude. Every failure ends in the
// debug log and exit status 0.
func runHook(args []string, env Env, running *atomic.Pointer[runningEvent], extend func(time.Duration)) (status int) {
	run := newHookRun(env)
	defer run.log.flush()
	session := ""
	defer func() {
		if p := recover(); p != nil {
			run.log.errorf(session, "panic: %v\n%s", p, debug.Stack())
			status = 0
		}
	}()
	src, named, err := lookupSource(args, env.Sources)
	if err != nil {
		run.log.errorf("", "%v", err)
		return 0
	}
	// The reply an agent needs goes out whatever happens below.
	if src.Reply != "" && env.Stdout != nil {
		defer io.WriteString(env.Stdout, src.Reply)
	}
	if run.layout.Home == "" {
		run.log.errorf("", "no home directory: $HOME is not set")
		return 0
	}
	ev := run.readEvent(src, named)
	if ev == nil {
		return 0
	}
	session = ev.SessionID
	running.Store(&runningEvent{session: ev.SessionID, event: ev.HookEventName})
	obs := observe(ev, env, run.layout, src, run.log)
	now := env.Now()
	u, ok := run.apply(ev, obs, now)
	if !ok {
		return 0
	}
	ctx := run.followUpContext(ev, u, obs, now)
	runFollowUps(ctx, followUps)
	return run.finish(ctx, u, src, extend)
}

// restoreRecord puts a session's record back as it was before an event
// that a follow-up blocked (before is nil for a session that had none).
func restoreRecord(l paths.Layout, now time.Time, log *debugLog, id string, before *store.Record) error {
	return store.Update(l, now, log.storeErrorf, func(t *store.Table) bool {
		if before == nil {
			t.Remove(id)
		} else {
			t.Put(before)
		}
		return true
	})
}

// runFollowUps runs each follow-up, logging its error or panic, so one
// broken follow-up never costs the others or the person's Claude.
func runFollowUps(ctx *Context, list []followUp) {
	for _, f := range list {
		func() {
			defer func() {
				if p := recover(); p != nil {
					ctx.Logf("%s: panic: %v\n%s", f.name, p, debug.Stack())
				}
			}()
			if err := f.run(ctx); err != nil {
				ctx.Logf("%s: %v", f.name, err)
			}
		}()
	}
}

// observation is what the hook learns around an event rather than from
// it, gathered before the store is locked so the lock is held briefly.
type observation struct {
	// Process is the agent's process that ran the hook (Claude Code's, or
	// the one hud-hook <agent> names); PID 0 when it was not found or
	// cannot stand for the session.
	Process proc.Process
	// CWD stands in for the event's cwd when it has none (older clients,
	// other tools reusing the hook): CLAUDE_PROJECT_DIR, else the hook's
	// own working directory. Empty when the event has one.
	CWD        string
	ProjectDir string
	// ConfigDir is the Claude config directory, "" for ~/.claude.
	ConfigDir string
	// Terminal is where Claude runs, from the environment it passed on.
	Terminal terminal.Terminal
	// Alive reports whether a process recorded earlier still runs.
	Alive func(pid int, started int64) bool
}

// observe normalizes the event's paths in place and looks around.
func observe(ev *Event, env Env, layout paths.Layout, src *Source, log *debugLog) observation {
	rawCWD := ev.CWD
	ev.CWD = paths.Normalize(ev.CWD)
	ev.NewCWD = paths.Normalize(ev.NewCWD)
	obs := observation{
		Terminal:  terminal.FromEnv(env.Getenv),
		Alive:     proc.Alive,
		ConfigDir: layout.Config,
	}
	if p, err := proc.FindAgent(env.Parent, src.Process, src.IsProcess(layout)); err != nil {
		log.errorf(ev.SessionID, "%v", err)
	} else if why := refused(src, p); why != "" {
		log.errorf(ev.SessionID, "%s", why)
	} else {
		obs.Process = p
	}
	cwd := ev.CWD
	if ev.HookEventName == EventCwdChanged && ev.NewCWD != "" {
		cwd = ev.NewCWD
	}
	if cwd == "" {
		obs.CWD = fallbackCWD(env)
		cwd = obs.CWD
	}
	switch dir := env.Getenv("CLAUDE_PROJECT_DIR"); {
	case cwd == "":
	case dir != "" && dir == rawCWD:
		// Claude Code sets CLAUDE_PROJECT_DIR for every hook, most often
		// to the cwd just normalized: not twice the stats.
		obs.ProjectDir = ev.CWD
	default:
		obs.ProjectDir = paths.ProjectRoot(cwd, dir)
	}
	return obs
}

// refused says why p, the agent's process found above the hook, cannot
// stand for the session; "" when it can.
func refused(src *Source, p proc.Process) string {
	if src.Refuse == nil {
		return ""
	}
	return src.Refuse(p)
}

// agentPrefix names an agent other than Claude Code in a log line.
func agentPrefix(src *Source) string {
	if src.Name == "" {
		return ""
	}
	return src.Name + ": "
}

// fallbackCWD is where a session runs when its event does not say:
// CLAUDE_PROJECT_DIR, which Claude Code sets for every hook, else the
// directory Claude Code ran the hook in. Only absolute paths count.
func fallbackCWD(env Env) string {
	if dir := env.Getenv("CLAUDE_PROJECT_DIR"); filepath.IsAbs(dir) {
		return paths.Normalize(dir)
	}
	if env.Getwd != nil {
		if dir, err := env.Getwd(); err == nil && filepath.IsAbs(dir) {
			return paths.Normalize(dir)
		}
	}
	return ""
}

// readInput reads all of r, up to limit bytes. Main's watchdog bounds
// how long that may take: a goroutine and a timer here would cost every
// run a thread.
func readInput(r io.Reader, limit int) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading stdin: %w", err)
	case len(b) > limit:
		return nil, fmt.Errorf("reading stdin: input over %d bytes dropped", limit)
	}
	return b, nil
}

// stateName is a record's state for the log, "-" for no record.
func stateName(r *store.Record) string {
	if r == nil {
		return "-"
	}
	return string(r.State)
}

// sinceMillis formats the time since start in milliseconds.
func sinceMillis(start time.Time) string {
	return fmt.Sprintf("%.2fms", float64(time.Since(start).Microseconds())/1000)
}
