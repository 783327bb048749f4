package hook

import (
	"errors"
	"fmt"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/internal/paths"
)

// trackActivity keeps the session's activity. It is written for
// the hot path: most events cost one switch; tool events that edit files,
// todos or start agents cost one small locked file update; anything that
// needs git goes to the detached worker.
func trackActivity(ctx *Context) error {
	ev := ctx.Event
	if ev.SessionID == "" || ctx.After == nil {
		return nil // SessionEnd: the activity stays for `hud activity`
	}
	switch ev.HookEventName {
	case EventSessionStart:
		return activityStart(ctx)
	case EventUserPromptSubmit:
		// What the session works on is in the store already; the worker
		// reads it from there rather than the hook writing it twice.
		return maybePeriodicCheckpoint(ctx)
	case EventStop:
		if !ctx.MainTurnEnded() {
			return nil
		}
		return spawnActivityJob(ctx, activity.JobCheckpoint, activity.ReasonStop)
	case EventPreCompact:
		return spawnActivityJob(ctx, activity.JobHandoff, "")
	}
	if !activity.Interesting(ev.HookEventName, ev.ToolName) {
		if ev.HookEventName == EventPostToolUse || ev.HookEventName == EventPostToolUseFailure {
			return maybePeriodicCheckpoint(ctx)
		}
		return nil
	}
	te := activity.ToolEvent{
		Event:        ev.HookEventName,
		ToolName:     ev.ToolName,
		ToolInput:    ev.ToolInput,
		ToolResponse: ev.ToolResponse,
		AgentType:    ev.AgentType,
		ProjectDir:   ctx.After.Project(),
		Now:          ctx.Now,
	}
	if _, err := activity.Update(ctx.Layout, ev.SessionID, func(s *activity.Session) bool {
		return activity.Apply(s, te)
	}); err != nil {
		return err
	}
	if inv, ok := activity.AgentInvocationFor(ev.SessionID, te); ok {
		return activity.AppendJSONL(activity.AgentLogPath(ctx.Layout), inv)
	}
	return nil
}

// activityStart (re)starts the session's activity: it remembers the project
// and the checkpoint interval, sets the git baseline in the worker, and
// after a compaction hands the saved snapshot back to Claude when the
// person asked for it.
func activityStart(ctx *Context) error {
	cfg := ctx.Config()
	if _, err := activity.Update(ctx.Layout, ctx.Event.SessionID, func(s *activity.Session) bool {
		if s.StartedAt.IsZero() {
			s.StartedAt = ctx.Now
		}
		s.ProjectDir = ctx.After.Project()
		s.CheckpointEvery = cfg.Activity.CheckpointEvery
		return true
	}); err != nil {
		return err
	}
	if ctx.Event.Source == "compact" && cfg.Activity.RestoreOnCompact {
		h, err := activity.ReadHandoff(ctx.Layout, ctx.Event.SessionID)
		if err != nil {
			return err
		}
		if h != nil {
			ctx.Say(h.RestoreNote())
		}
	}
	return spawnActivityJob(ctx, activity.JobScan, "")
}

// maybePeriodicCheckpoint starts an automatic checkpoint when one is due.
// The clock is moved forward under the lock before the worker starts, so
// parallel tool calls start one worker, not one each.
func maybePeriodicCheckpoint(ctx *Context) error {
	// Almost always nothing is due: a plain read (the file is replaced
	// atomically) settles that without the lock; the lock is taken only
	// to claim a due checkpoint, and the check repeated under it.
	if due, err := activity.CheckpointDue(ctx.Layout, ctx.Event.SessionID, ctx.Now); err != nil || !due {
		return err
	}
	due := false
	if _, err := activity.Update(ctx.Layout, ctx.Event.SessionID, func(s *activity.Session) bool {
		if !s.CheckpointDue(ctx.Now) {
			return false
		}
		s.LastCheckpoint = ctx.Now
		due = true
		return true
	}); err != nil {
		return err
	}
	if !due {
		return nil
	}
	return spawnActivityJob(ctx, activity.JobCheckpoint, activity.ReasonAutomatic)
}

func spawnActivityJob(ctx *Context, kind, reason string) error {
	if ctx.executable == nil {
		return errors.New("activity worker: no executable")
	}
	exe, err := ctx.executable()
	if err != nil {
		return fmt.Errorf("activity worker: %w", err)
	}
	job := activity.Job{Home: ctx.Layout.Home, SessionID: ctx.Event.SessionID, Kind: kind, Reason: reason}
	return activity.Spawn(exe, job, ctx.lockDir(), ctx.Logf)
}

// runActivityWorker is the hidden mode the detached worker runs in. It
// logs to the debug log of the home it works for.
func runActivityWorker(args []string, env Env) int {
	return activity.WorkerMain(args, env.Now, helperLog(env))
}

// helperLog makes a helper's debug-log writer for the home it works for
// (a helper's own environment may have no HOME: the holder's is empty).
func helperLog(env Env) activity.Logger {
	return func(home, session string) (func(string, ...any), func()) {
		if home == "" {
			home = env.Getenv("HOME")
		}
		log := newDebugLog(paths.Layout{Home: home}, env)
		return func(format string, a ...any) { log.errorf(session, format, a...) }, log.flush
	}
}
