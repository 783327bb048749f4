package app

import (
	"time"

	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/resolver"
)

// lockGrace is how long a session may run on a fresh record alone before
// the tray doubts it: the hook starts the lock holder at SessionStart, so
// a lock is normally there within milliseconds. Past this, the holder
// failed to start (or the hooks are old) and the session disappears
// silently when its record goes stale, so the icon says "unsure".
const lockGrace = 10 * time.Second

// toPresent turns the resolver's sessions into the presenter's.
// activity, when set, sums up what each session has done.
func toPresent(sessions []resolver.Session, now time.Time, activity func(sessionID string) string) []present.Session {
	out := make([]present.Session, 0, len(sessions))
	for _, s := range sessions {
		v := view.Of(&s)
		p := present.Session{
			ID:         v.Key,
			State:      v.State,
			Since:      v.Since,
			CWD:        v.CWD,
			Name:       v.ClaudeName,
			Project:    v.ProjectDir,
			WaitingFor: v.WaitingFor,
			WorkingOn:  v.WorkingOn,
			Agents:     v.Agents,
			TmuxPane:   v.TmuxPane,
			Hooked:     v.Hooked,
			Agent:      v.Agent,
		}
		if activity != nil && s.SessionID != "" {
			p.Activity = activity(s.SessionID)
		}
		if !v.Hooked {
			p.Doubt = "no hook event recorded"
		}
		if s.Source == resolver.SourceFresh && s.Record != nil {
			updated := s.Record.UpdatedAt.Time
			doubtAt := updated.Add(lockGrace)
			if now.Before(doubtAt) {
				p.ChangesAt = doubtAt
			} else {
				p.Doubt = "no lock holder"
				// The resolver keeps a record of age exactly FreshTTL;
				// it drops it the next millisecond (store resolution).
				p.ChangesAt = updated.Add(resolver.FreshTTL + time.Millisecond)
			}
		}
		out = append(out, p)
	}
	return out
}
