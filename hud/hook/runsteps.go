package hook

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// hookRun is what every step of one run shares: the environment, the
// layout of this Claude's files, the debug log and when the run began.
type hookRun struct {
	env    Env
	layout paths.Layout
	log    *debugLog
	start  time.Time
}

// newHookRun starts a run. The config dir (CLAUDE_CONFIG_DIR, which
// Claude passes on to its hooks) says where this Claude keeps its
// sessions: the lock goes there, and the record names it for the readers.
func newHookRun(env Env) *hookRun {
	start := time.Now()
	layout := paths.Layout{Home: env.Getenv("HOME")}
	layout = layout.WithConfig(resolver.ConfigDirFromEnv(layout, env.Getenv("CLAUDE_CONFIG_DIR")))
	log := newDebugLog(layout, env)
	return &hookRun{env: env, layout: ownConfigDir(layout, log), log: log, start: start}
}

// readEvent reads stdin and decodes it as src's event; nil when there is
// nothing to apply (an input that does not decode, logged, or an event of
// the agent's that carries no state).
func (run *hookRun) readEvent(src *Source, named string) *Event {
	input, err := readInput(run.env.Stdin, maxInput)
	if err != nil {
		run.log.errorf("", "%v", err)
		return nil
	}
	ev, err := src.Decode(named, input)
	if err != nil {
		run.log.errorf("", "%s%v (%d bytes dropped)", agentPrefix(src), err, len(input))
		return nil
	}
	if ev != nil {
		ev.Agent = src.Name
	}
	return ev
}

// apply applies ev to the store; false when the store was not written (an
// error, or an event the table dropped), which is logged.
func (run *hookRun) apply(ev *Event, obs observation, now time.Time) (update, bool) {
	var u update
	err := store.Update(run.layout, now, run.log.storeErrorf, func(t *store.Table) bool {
		u = applyEvent(t, ev, obs, now)
		return u.Dropped == ""
	})
	if err != nil {
		run.log.errorf(ev.SessionID, "%s: %v", ev.HookEventName, err)
		return u, false
	}
	if u.Dropped != "" {
		run.log.eventf(ev.SessionID, "%s ignored: %s (%s)", ev.HookEventName, u.Dropped, sinceMillis(run.start))
		return u, false
	}
	return u, true
}

// followUpContext is what the follow-ups of ev, applied as u, are given.
func (run *hookRun) followUpContext(ev *Event, u update, obs observation, now time.Time) *Context {
	return &Context{
		Layout:  run.layout,
		Event:   ev,
		Before:  u.Before,
		After:   u.After,
		Process: AgentProcess{PID: obs.Process.PID, Started: obs.Process.Started},
		Now:     now,
		Getenv:  run.env.Getenv,
		Logf: func(format string, args ...any) {
			run.log.errorf(ev.SessionID, format, args...)
		},
		process:    obs.Process,
		executable: run.env.Executable,
	}
}

// finish logs the run and answers Claude: exit status 2 and the reason on
// stderr when a follow-up blocked the event, else the tray's answer to a
// dialog and what the follow-ups said, and status 0.
func (run *hookRun) finish(ctx *Context, u update, src *Source, extend func(time.Duration)) int {
	ev, session := ctx.Event, ctx.Event.SessionID
	if ctx.blocked != "" {
		run.log.eventf(session, "%s blocked, %s kept (%s): %s", ev.HookEventName, stateName(u.Before), sinceMillis(run.start), ctx.blocked)
		// A blocked prompt never reaches Claude: no turn starts and no Stop
		// will follow, so the record goes back to what it was.
		if err := restoreRecord(run.layout, ctx.Now, run.log, ev.SessionID, u.Before); err != nil {
			run.log.errorf(session, "restoring the record after a blocked prompt: %v", err)
		}
		fmt.Fprintln(run.env.Stderr, ctx.blocked)
		return 2
	}
	replaced := ""
	if len(u.Replaced) > 0 {
		replaced = ", ended " + strings.Join(u.Replaced, " ") + " of the same process"
	}
	run.log.eventf(session, "%s %s→%s (%s%s)", ev.HookEventName, stateName(u.Before), stateName(u.After), sinceMillis(run.start), replaced)
	if ev.HookEventName == EventPermissionRequest && src.Answers {
		answerDialog(ctx, run.log, extend)
	}
	if ctx.said != "" && run.env.Stdout != nil {
		io.WriteString(run.env.Stdout, ctx.said)
	}
	return 0
}
