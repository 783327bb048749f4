package status

import (
	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/resolver"
)

// LoadActivity fills each session's Activity from what the hook recorded
// (~/.capacitor/activity/<session>.json). A session with no record, or an
// unreadable one, keeps a nil Activity: the facts are a bonus, never a
// reason to fail a status.
func (v *View) LoadActivity(l resolver.Layout) *View {
	for i := range v.Sessions {
		s := &v.Sessions[i]
		if a, err := activity.Load(l, s.SessionID); err == nil && a != nil {
			facts := activity.FactsOf(a)
			s.Activity = &facts
		}
	}
	return v
}
