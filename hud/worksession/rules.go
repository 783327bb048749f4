package worksession

import (
	"fmt"
	"time"

	"github.com/capacitor-hud/hud/hud/config/settings"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/store"
)

// Settings are the thresholds of the work session rules: the
// [work_session] table of the settings file, taken as it is.
type Settings = settings.WorkSession

// DefaultSettings are the default thresholds (settings.Default's
// [work_session]).
func DefaultSettings() Settings { return settings.Default().WorkSession }

// TimeoutMessage is the one-line reason a strict hook gives for blocking
// a prompt of task, timed out at timeout (Settings.TimeoutAt).
func TimeoutMessage(task string, timeout time.Duration) string {
	return fmt.Sprintf("hud: work session %q timed out after %s of work; take a break, then run 'hud session resume'.",
		task, text.Duration(timeout))
}

// timeoutReason is TimeoutReason with the timeout. It is data,
// not a label: other readers of the session file know it in this shape, so
// the timeout is written in minutes ("90 min"), or as a Go duration when
// it is not whole minutes (short test settings: "30s").
func timeoutReason(timeout time.Duration) string {
	at := timeout.String()
	if timeout%time.Minute == 0 {
		at = fmt.Sprintf("%d min", int(timeout/time.Minute))
	}
	return "Timeout enforced at " + at + " working time"
}

// Activity is what one hook event tells the rules besides "something
// happened now".
type Activity struct {
	// TaskStarted is set when a Task (subagent) tool call starts; it is
	// the pause reason should the run become long ("Task agent: ...").
	TaskStarted string
	// TaskEnded: a Task tool call finished.
	TaskEnded bool
	// TurnBoundary: a prompt was sent or a turn ended, so no Task call of
	// the previous turn can still run (an Esc interrupt fires no
	// PostToolUse).
	TurnBoundary bool
}

// Observe brings the state up to now for one hook event: working time or
// an idle pause for the gap since the last event, the Task runs, and the
// 40/60/90 ladder. It returns the milestones that fired.
func Observe(s *State, now time.Time, act Activity, set Settings) []Milestone {
	timedOut := s.advance(now, set)
	switch {
	case act.TaskStarted != "" && s.Status == InProgress:
		if s.RunningTask == nil {
			s.RunningTask = &RunningTask{Reason: act.TaskStarted, StartTime: store.At(now), WorkingMsAtStart: s.ActualWorkingMs}
		}
		s.RunningTask.Running++
	case act.TaskEnded && s.RunningTask != nil:
		if s.RunningTask.Running--; s.RunningTask.Running <= 0 {
			s.finishTask(now)
		}
	}
	if act.TurnBoundary && s.RunningTask != nil {
		s.finishTask(now)
	}
	return s.ladder(now, set, timedOut)
}

// advance accounts for the time between the last event and now. It
// reports whether the timeout fell inside that time.
func (s *State) advance(now time.Time, set Settings) (timedOut bool) {
	last := s.LastMessageTime.Time
	if now.Before(last) {
		return false // a clock step back: count nothing, move nothing
	}
	defer func() { s.LastMessageTime = store.At(now) }()
	if s.Status != InProgress {
		return false // the open pause covers the gap
	}
	if t := s.RunningTask; t != nil && now.Sub(t.StartTime.Time) >= set.TaskPauseAfter {
		s.taskBecamePause()
		return false
	}
	gap := now.Sub(last)
	if gap >= set.IdleGap {
		s.Pauses = append(s.Pauses, closedPause(AutoIdle, "User idle", last, now))
		s.TotalPausedMs += gap.Milliseconds()
		return false
	}
	working := time.Duration(s.ActualWorkingMs) * time.Millisecond
	if !s.Reminders.Timeout90min && set.TimeoutAt > 0 && working+gap >= set.TimeoutAt {
		// The timeout falls inside this gap: work up to it, pause after.
		at := last.Add(set.TimeoutAt - working)
		s.ActualWorkingMs = set.TimeoutAt.Milliseconds()
		s.openTimeout(at, set)
		return true
	}
	s.ActualWorkingMs += gap.Milliseconds()
	return false
}

// taskBecamePause turns the running Task into an AUTO_TASK pause from its
// start: the time counted as work meanwhile goes back, and idle pauses
// inside the run are folded into it.
func (s *State) taskBecamePause() {
	t := s.RunningTask
	kept := s.Pauses[:0]
	for _, p := range s.Pauses {
		if p.Type == AutoIdle && !p.StartTime.Before(t.StartTime.Time) {
			s.TotalPausedMs -= p.DurationMs
			continue
		}
		kept = append(kept, p)
	}
	s.Pauses = kept
	s.ActualWorkingMs = t.WorkingMsAtStart
	s.Pauses = append(s.Pauses, Pause{Type: AutoTask, Reason: t.Reason, StartTime: t.StartTime})
	s.Status = Paused
}

// finishTask ends the Task run: a run that became a pause closes it.
func (s *State) finishTask(now time.Time) {
	t := s.RunningTask
	s.RunningTask = nil
	if p := s.openPause(); p != nil && p.Type == AutoTask && p.StartTime.Equal(t.StartTime.Time) && p.Reason == t.Reason {
		s.closePause(p, now)
		s.Status = InProgress
	}
}

// openTimeout pauses the session at the timeout.
func (s *State) openTimeout(at time.Time, set Settings) {
	s.RunningTask = nil
	s.Pauses = append(s.Pauses, Pause{Type: AutoTask, Reason: timeoutReason(set.TimeoutAt), StartTime: store.At(at)})
	s.Status = Paused
	s.Reminders.Timeout90min = true
}

// ladder sets the reminder flags the working time has reached; each fires
// once. timedOut says advance has just opened the timeout pause.
func (s *State) ladder(now time.Time, set Settings, timedOut bool) []Milestone {
	working := time.Duration(s.ActualWorkingMs) * time.Millisecond
	var fired []Milestone
	for _, f := range []struct {
		at   time.Duration
		flag *bool
		m    Milestone
	}{
		{set.RemindAt, &s.Reminders.Break40min, Break},
		{set.WarnAt, &s.Reminders.Warning60min, Warning},
	} {
		if f.at > 0 && working >= f.at && !*f.flag {
			*f.flag = true
			fired = append(fired, f.m)
		}
	}
	switch {
	case timedOut:
		fired = append(fired, Timeout)
	case set.TimeoutAt > 0 && working >= set.TimeoutAt && !s.Reminders.Timeout90min:
		// Reached without crossing inside a gap (the setting was
		// lowered): pause from now.
		if s.Status == InProgress {
			s.openTimeout(now, set)
		}
		s.Reminders.Timeout90min = true
		fired = append(fired, Timeout)
	}
	return fired
}

func closedPause(kind PauseType, reason string, start, end time.Time) Pause {
	e := store.At(end)
	return Pause{Type: kind, Reason: reason, StartTime: store.At(start), EndTime: &e, DurationMs: end.Sub(start).Milliseconds()}
}

// closePause ends an ongoing pause at now and adds it to the total.
func (s *State) closePause(p *Pause, now time.Time) {
	end := store.At(now)
	if end.Before(p.StartTime.Time) {
		end = p.StartTime
	}
	p.EndTime = &end
	p.DurationMs = end.Sub(p.StartTime.Time).Milliseconds()
	s.TotalPausedMs += p.DurationMs
}
