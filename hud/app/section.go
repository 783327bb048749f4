package app

import (
	"time"

	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/resolver"
)

// BreaksAndWork is the tray's menu section: a line per running work session
// ("api · 42m of work", hud/worksession), then the break reminders and
// their actions (hud/breaks).
type BreaksAndWork struct {
	Breaks *breaks.Section
	Work   *worksession.Section
}

// Update implements Section.
func (s BreaksAndWork) Update(now time.Time, sessions []resolver.Session) time.Time {
	return present.Earliest(s.Work.Update(now, sessions), s.Breaks.Update(now, sessions))
}

// Rows implements Section.
func (s BreaksAndWork) Rows(now time.Time) ([]Row, time.Time) {
	lines, workNext := s.Work.Rows(now)
	rows, breakNext := s.Breaks.Rows(now)
	out := make([]Row, 0, len(lines)+len(rows))
	for _, l := range lines {
		out = append(out, Row{Label: l, Disabled: true})
	}
	for _, r := range rows {
		out = append(out, Row{Key: r.Key, Label: r.Label, Disabled: r.Disabled})
	}
	return out, present.Earliest(workNext, breakNext)
}

// Clicked implements Section: only break rows can be clicked.
func (s BreaksAndWork) Clicked(key string, now time.Time) { s.Breaks.Clicked(key, now) }

// Changed implements Section.
func (s BreaksAndWork) Changed() <-chan struct{} { return s.Breaks.Changed() }

// Configure implements Section.
func (s BreaksAndWork) Configure(cfg config.Config) {
	s.Breaks.SetSettings(breaks.FromConfig(cfg.Breaks))
	s.Work.SetSettings(cfg.WorkSession)
}
