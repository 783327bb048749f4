package breaks

import "time"

// SessionStarted records a SessionStart: the hook joins an active state
// or starts a fresh one. It reports whether it joined.
func (s *Scheduler) SessionStarted(now time.Time) (joined bool, err error) {
	err = s.Files.UpdateState(now, func(t *Txn) error {
		joined = OnSessionStart(&t.State, t.Loaded, now, s.Settings)
		return nil
	})
	return joined, err
}

// PromptSent records a UserPromptSubmit: the compliance check, a
// spontaneous break, a stale reset.
//
// With deliver set (the opt-in hook delivery, used only when the tray is
// not running), it then fires the reminder that is due, as Vibe Check did
// on each prompt, and returns it for the hook to hand to Claude. The
// prompt itself proves nobody waits on the person at this moment.
func (s *Scheduler) PromptSent(now time.Time, deliver bool) (out PromptOutcome, fired *Reminder, err error) {
	update := s.Files.UpdateState
	if deliver {
		update = s.Files.Update // firing heeds the snooze, skip and pause
	}
	err = update(now, func(t *Txn) error {
		out = OnPrompt(&t.State, now, s.Settings)
		if !deliver {
			return nil
		}
		t.Prefs = t.Prefs.pruned(&t.State, now)
		plan := PlanAt(t.State, t.Prefs, now, Sessions{}, s.Settings)
		if plan.Fire {
			fired = s.fire(t, plan, now)
		}
		return nil
	})
	return out, fired, err
}

// AnswerEnded records a Stop: Claude finished its answer.
func (s *Scheduler) AnswerEnded(now time.Time) error {
	return s.Files.UpdateState(now, func(t *Txn) error {
		OnStop(&t.State, now)
		return nil
	})
}
