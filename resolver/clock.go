package resolver

import "time"

// NextChange is the earliest moment after now at which resolving the same
// files gives another answer by the clock alone: a fresh record without a
// lock stops counting after FreshTTL, and Claude Code's "idle" overrules a
// session's record the moment its confirmation ends (idleBelievedAt, as
// SecondOpinion applies it). sessions are ResolveAll(…, now, …), each
// with the Claude file the resolver read for it. Zero when nothing is
// pending. Readers set one timer to it instead of polling.
func NextChange(sessions []Session, now time.Time) time.Time {
	var next time.Time
	consider := func(t time.Time) {
		if t.After(now) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	for _, s := range sessions {
		if s.Source == SourceFresh {
			// The store keeps milliseconds; a record exactly FreshTTL old
			// still counts, the next millisecond it does not.
			consider(s.UpdatedAt().Add(FreshTTL + time.Millisecond))
		}
		if s.Record != nil && s.Claude != nil {
			if at, ok := idleBelievedAt(s.Record, s.Claude); ok {
				consider(at)
			}
		}
	}
	return next
}
