package hook

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/resolver"
	"golang.org/x/sys/unix"
)

// trackBreaks records what the break reminders need (issue 6): a session
// started, a prompt was sent, an answer ended. Every other event returns at
// the switch, so the hot path pays nothing; these three take the break
// state's lock for one small read and write.
func trackBreaks(ctx *Context) error {
	ev := ctx.Event
	switch ev.HookEventName {
	case EventSessionStart, EventUserPromptSubmit:
	case EventStop:
		// Only the end of the main turn: a subagent's or a stop hook's
		// Stop leaves the record working.
		if ctx.After == nil || ctx.After.State != resolver.StateReady {
			return nil
		}
		return sched(ctx, breaks.DefaultSettings()).AnswerEnded(ctx.Now)
	default:
		return nil
	}
	cfg, _ := config.Load(config.DefaultPath(ctx.Layout.Home, ctx.Getenv), ctx.Getenv)
	set := breaks.FromConfig(cfg.Breaks)
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

// trayLockName is the tray's single-instance lock in the store directory:
// app.InstanceLockPath(layout.StoreDir()). The hook cannot import hud/app
// (it links the tray's libraries), hence the name twice.
const trayLockName = "hud-tray.lock"

// trayRunning reports whether a tray holds its single-instance flock. A
// shared lock that cannot be taken means an exclusive one is held.
func trayRunning(layout resolver.Layout) bool {
	f, err := os.Open(filepath.Join(layout.StoreDir(), trayLockName))
	if err != nil {
		return false
	}
	defer f.Close()
	err = unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return true
	}
	// Taken (and released by Close): nobody holds it exclusively.
	return false
}
