package hook

import (
	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// trackBreaks records what the break reminders need: a session
// started, a prompt was sent, an answer ended. Every other event returns at
// the switch, so the hot path pays nothing; these three take the break
// state's lock for one small read and write.
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
	_, fired, err := s.PromptSent(ctx.Now, deliver)
	if fired != nil {
		ctx.Say(hookReminderText(fired))
	}
	return err
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
