package hook

import (
	"errors"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/lockholder"
)

// trackBreaks records what the break reminders need: a session
// started, a prompt was sent, an answer ended. Every other event returns at
// the switch, so the hot path pays nothing; these three take the break
// state's lock for one small read and write, except a prompt the session's
// lock holder records (handPromptOver).
//
// A Stop records its answer's end here, at once: the tray decides on the
// reminder due at the end of a turn as soon as the session turns ready,
// and the timers must say by then that the person was there.
func trackBreaks(ctx *Context) error {
	ev := ctx.Event
	switch ev.HookEventName {
	case EventSessionStart, EventUserPromptSubmit:
	case EventStop:
		if !ctx.MainTurnEnded() {
			return nil
		}
		return sched(ctx, breaks.DefaultSettings()).AnswerEnded(ctx.Now)
	default:
		return nil
	}
	set := breaks.FromConfig(ctx.Config().Breaks)
	s := sched(ctx, set)
	if ev.HookEventName == EventSessionStart {
		_, err := s.SessionStarted(ctx.Now)
		return err
	}
	// Vibe Check's own way, opt-in and only when no tray shows reminders:
	// the due reminder goes into Claude's context with this prompt.
	deliver := set.Enabled && set.HookDelivery && !trayRunning(ctx.Layout)
	if !deliver && handPromptOver(ctx, set) {
		return nil
	}
	_, fired, err := s.PromptSent(ctx.Now, deliver)
	if fired != nil {
		ctx.Say(hookReminderText(fired))
	}
	return err
}

// handPromptOver hands the prompt to the lock holder of the Claude process,
// which records it in the timers a moment later (breaks.PromptJob), and
// reports false when no holder takes it: the hook then records it itself.
// A holder that took the job lives, which settles the prompt's check that
// one does (ensureLockHolder).
func handPromptOver(ctx *Context, set breaks.Settings) bool {
	dir := ctx.lockDir()
	if dir == "" {
		return false
	}
	job, err := breaks.PromptJob{Home: ctx.Layout.Home, At: ctx.Now, Settings: set}.Encode()
	if err == nil {
		err = lockholder.SendJob(dir, job)
	}
	if err != nil {
		if !errors.Is(err, lockholder.ErrNoInbox) {
			ctx.Logf("break timers: %v; recording the prompt here", err)
		}
		return false
	}
	ctx.holderLives = true
	return true
}

// recordPrompt is the lock holder's side of handPromptOver: it records a
// prompt a hook handed over, and tells the debug log of the job's home
// when that fails (the hook that sent it has exited). A job it cannot read
// is dropped: the holder must go on holding its lock.
func recordPrompt(job []byte, newLog activity.Logger) {
	j, err := breaks.DecodePromptJob(job)
	if err != nil {
		return
	}
	logf, flush := newLog(j.Home, "")
	defer flush()
	if err := j.Run(logf); err != nil {
		logf("lock holder: break timers: %v", err)
	}
}

func sched(ctx *Context, set breaks.Settings) *breaks.Scheduler {
	return breaks.NewScheduler(ctx.Layout, set, ctx.Logf)
}

// hookReminderText is what Claude reads before the prompt: one reminder,
// and how to pass it on.
func hookReminderText(r *breaks.Reminder) string {
	return "Break reminder (from hud, the person's HUD): " + r.String() +
		"\nMention this to the person in one short sentence at the start of your answer, then carry on.\n"
}

// trayRunning reports whether a tray holds its single-instance lock.
func trayRunning(layout paths.Layout) bool {
	return safefile.Held(layout.TrayLockPath())
}
