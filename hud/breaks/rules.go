package breaks

import "time"

// unknownComplianceThreshold is Vibe Check's COMPLIANCE_THRESHOLDS default
// for a pending break of a type it does not know.
const unknownComplianceThreshold = 120 * time.Second

// OnSessionStart applies a SessionStart to the state loaded from disk
// (loaded is false when there was no valid file): it joins the existing
// state when it was active within the stale threshold, else starts fresh.
// It reports whether it joined.
func OnSessionStart(s *State, loaded bool, now time.Time, set Settings) (joined bool) {
	if loaded && now.Sub(s.LastActive.Time()) < set.StaleThreshold {
		s.LastActive = SecondsOf(now)
		return true
	}
	*s = Fresh(now)
	return false
}

// PromptOutcome says what a prompt did to the timers.
type PromptOutcome struct {
	// Stale: the state was idle past the stale threshold and started over.
	Stale bool
	// Complied is the pending break the person took (its timers reset);
	// Missed is one they did not take. At most one is set.
	Complied, Missed string
	// Spontaneous: with no reminder pending, the pause before this prompt
	// was long enough to count as a break (every timer reset).
	Spontaneous bool
}

// OnPrompt applies a UserPromptSubmit, Vibe Check's check_reminder.py
// minus the firing (the tray fires on time instead; see [Decide]).
//
// The gap that counts as a break starts when Claude's last answer ended,
// or when the reminder fired if that was later: the tray may fire while
// the person reads, and the break only starts once they were told.
//
// A prompt older than the last answer's end the state has (another
// session's, recorded first: by its hook, while this prompt's job waited
// for the lock holder or its hook for the lock) changes nothing: the gap
// before it is no longer there to measure, and a pending break is judged
// at the next prompt.
func OnPrompt(s *State, now time.Time, set Settings) PromptOutcome {
	if s.LastResponseEnd > SecondsOf(now) {
		return PromptOutcome{}
	}
	if now.Sub(s.LastActive.Time()) >= set.StaleThreshold {
		*s = Fresh(now)
		return PromptOutcome{Stale: true}
	}
	var out PromptOutcome
	gapStart := s.LastResponseEnd.Time()
	if p := s.PendingBreak; p != nil {
		if fired := p.FiredAt.Time(); fired.After(gapStart) {
			gapStart = fired
		}
		threshold := unknownComplianceThreshold
		kind, known := ParseKind(p.Type)
		if known {
			threshold = set.Duration[kind]
		}
		if now.Sub(gapStart) >= threshold {
			out.Complied = p.Type
			if known {
				s.reset(kind, now)
			}
		} else {
			out.Missed = p.Type
		}
		s.PendingBreak = nil
	} else if now.Sub(gapStart) >= set.GapThreshold {
		out.Spontaneous = true
		s.resetAll(now)
	}
	s.LastActive = SecondsOf(now)
	return out
}

// OnStop applies a Stop: Claude's answer ended.
func OnStop(s *State, now time.Time) {
	s.LastResponseEnd = SecondsOf(now)
	s.LastActive = SecondsOf(now)
}

// reset restarts the timer of a break the person took; a full break
// restarts all three.
func (s *State) reset(k Kind, now time.Time) {
	if k == Full {
		s.resetAll(now)
		return
	}
	*s.last(k) = SecondsOf(now)
}

func (s *State) resetAll(now time.Time) {
	for _, k := range kinds {
		*s.last(k) = SecondsOf(now)
	}
}

// DueAt is when a reminder of kind k comes due: its last break plus its
// interval.
func (s *State) DueAt(k Kind, set Settings) time.Time {
	return s.last(k).Time().Add(set.Interval[k])
}

// fire records that a reminder of kind k was shown at now: the pending
// break (for the compliance check), the count, the dedup guard and the
// tip rotation, as Vibe Check does.
//
// It also restarts the timer of k (a full break: all three), and of any
// lower-priority kind that is due as well, so the person is not told twice
// within a minute: Vibe Check only fired on a prompt, while the tray fires
// on a timer, which would otherwise repeat the same reminder after every
// dedup window until the next prompt.
//
// It returns the tip index to show (the value before advancing).
func (s *State) fire(k Kind, now time.Time, set Settings) (tip int) {
	s.PendingBreak = &PendingBreak{Type: k.String(), FiredAt: SecondsOf(now)}
	s.ReminderCount++
	s.LastReminderFiredAt = SecondsOf(now)
	idx := s.tipIndex(k)
	tip = *idx
	*idx++
	s.coverLower(k, now, now, set)
	s.reset(k, now)
	return tip
}

// coverLower restarts at now the timers of the kinds below k that are due
// by the given time: the reminder of kind k just shown stands in for them.
func (s *State) coverLower(k Kind, by, now time.Time, set Settings) {
	for _, lower := range kinds {
		if lower < k && !s.DueAt(lower, set).After(by) {
			*s.last(lower) = SecondsOf(now)
		}
	}
}
