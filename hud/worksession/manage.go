package worksession

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/store"
)

// New starts a session on task, contributing to scope, at now. The id is
// YYYYMMDD-scope-task (local date, both parts slugged) and the branch
// name session/<id>.
func New(task, scope string, now time.Time) (*State, error) {
	task = strings.TrimSpace(task)
	scope = strings.TrimSpace(scope)
	if task == "" {
		return nil, errors.New("a session needs a task: hud session start \"<task>\"")
	}
	if scope == "" {
		return nil, errors.New("a session needs a scope")
	}
	id := now.Format("20060102") + "-" + joinSlugs(Slug(scope), Slug(task))
	at := store.At(now)
	return &State{
		SessionID:       id,
		Scope:           scope,
		Task:            task,
		BranchName:      "session/" + id,
		Status:          InProgress,
		StartTime:       at,
		LastMessageTime: at,
		Pauses:          []Pause{},
		Summary:         "Starting work on " + task,
	}, nil
}

// maxSlug bounds each part of the id, so branch names stay readable.
const maxSlug = 40

// Slug lowercases s and joins its letters and digits with single
// hyphens: "Domain Layer Foundation" → "domain-layer-foundation".
func Slug(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			continue
		}
		hyphen = true
	}
	out := b.String()
	if len(out) > maxSlug {
		out = strings.TrimRight(text.Head(out, maxSlug), "-")
	}
	return out
}

func joinSlugs(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return "session"
	}
	return strings.Join(kept, "-")
}

// ErrAlreadyPaused is returned by Pause on a paused session.
var ErrAlreadyPaused = errors.New("the session is already paused")

// ErrNotPaused is returned by Resume on a running session.
var ErrNotPaused = errors.New("the session is not paused")

// Pause pauses the session by hand (a MANUAL pause with the reason). The
// time since the last event is accounted for first.
func (s *State) Pause(now time.Time, reason string, set Settings) error {
	s.advance(now, set)
	if s.Status == Paused {
		if p := s.openPause(); p != nil {
			return fmt.Errorf("%w (%s)", ErrAlreadyPaused, p.Reason)
		}
		return ErrAlreadyPaused
	}
	if reason = strings.TrimSpace(reason); reason == "" {
		reason = "paused"
	}
	s.RunningTask = nil
	s.Pauses = append(s.Pauses, Pause{Type: Manual, Reason: reason, StartTime: store.At(now)})
	s.Status = Paused
	return nil
}

// Resume ends the ongoing pause, whatever its type (a timeout too), and
// counts time again from now.
func (s *State) Resume(now time.Time) error {
	if s.Status != Paused {
		return ErrNotPaused
	}
	if p := s.openPause(); p != nil {
		s.closePause(p, now)
	}
	s.RunningTask = nil
	s.Status = InProgress
	if now.After(s.LastMessageTime.Time) {
		s.LastMessageTime = store.At(now)
	}
	return nil
}

// Working is the working time at now: what the file says plus, while the
// session runs, the time since the last event if it is still short of an
// idle gap. The tray shows it climbing between hook events.
func (s *State) Working(now time.Time, set Settings) time.Duration {
	working := time.Duration(s.ActualWorkingMs) * time.Millisecond
	if s.Status != InProgress || s.RunningTask != nil && now.Sub(s.RunningTask.StartTime.Time) >= set.TaskPauseAfter {
		return working
	}
	if gap := now.Sub(s.LastMessageTime.Time); gap > 0 && gap < set.IdleGap {
		working += gap
	}
	if !s.Reminders.Timeout90min && set.TimeoutAt > 0 {
		working = min(working, set.TimeoutAt)
	}
	return working
}

// climbsUntil is when Working stops growing with the clock alone: the
// end of the idle gap, or of a Task run's allowance, whichever is first.
// Zero when it does not grow at now (paused, away past the idle gap, a
// long Task, capped at the timeout): until the next hook event, the
// count stands still.
func (s *State) climbsUntil(now time.Time, set Settings) time.Time {
	if s.Status != InProgress {
		return time.Time{}
	}
	end := s.LastMessageTime.Time.Add(set.IdleGap)
	if t := s.RunningTask; t != nil {
		end = earliest(end, t.StartTime.Time.Add(set.TaskPauseAfter))
	}
	if !now.Before(end) {
		return time.Time{}
	}
	if !s.Reminders.Timeout90min && set.TimeoutAt > 0 && s.Working(now, set) >= set.TimeoutAt {
		return time.Time{}
	}
	return end
}

// earliest is the earlier of two moments.
func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// PausedTotal is the paused time at now, the ongoing pause included.
func (s *State) PausedTotal(now time.Time) time.Duration {
	paused := time.Duration(s.TotalPausedMs) * time.Millisecond
	if p := s.openPause(); p != nil && now.After(p.StartTime.Time) {
		paused += now.Sub(p.StartTime.Time)
	}
	return paused
}
