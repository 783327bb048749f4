package worksession

import (
	"sync"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/resolver"
)

// Section shows the running work sessions in the tray app and notifies the
// 40/60/90 minute milestones the hook recorded. Its Update has the
// signature of the app's Notifier.Update; Rows serves the menu section.
// The methods may be called from any goroutine.
type Section struct {
	set    Settings
	notify func(title, body string)
	logf   func(string, ...any)

	mu       sync.Mutex
	projects []string
	seen     map[string]*State // project → last read, for NewlyFired
}

// NewSection returns the work-session part of the tray; notify shows a
// desktop notification.
func NewSection(set Settings, notify func(title, body string), logf func(string, ...any)) *Section {
	return &Section{set: set, notify: notify, logf: logf, seen: map[string]*State{}}
}

// SetSettings applies new thresholds (the settings file changed).
func (t *Section) SetSettings(set Settings) {
	t.mu.Lock()
	t.set = set
	t.mu.Unlock()
}

// Update reads the sessions of the live Claude sessions' projects,
// notifies the milestones that fired since the last look, and returns
// when the shown working time next changes (zero: nothing runs).
func (t *Section) Update(now time.Time, sessions []resolver.Session) time.Time {
	var projects []string
	for _, s := range sessions {
		switch {
		case s.Record != nil && s.Record.ProjectDir != "":
			// The hook's choice, CLAUDE_PROJECT_DIR honoured.
			projects = append(projects, s.Record.ProjectDir)
		case s.CWD != "":
			projects = append(projects, paths.ProjectRoot(s.CWD, ""))
		}
	}
	t.mu.Lock()
	set := t.set
	t.mu.Unlock()
	sums := Summarize(projects, now, set, t.logf)

	t.mu.Lock()
	t.projects = projects
	seen := map[string]*State{}
	var news [][2]string
	for _, sum := range sums {
		for _, m := range NewlyFired(t.seen[sum.Project], sum.State) {
			title, body := m.Message(sum.State, set)
			news = append(news, [2]string{title, body})
		}
		seen[sum.Project] = sum.State
	}
	t.seen = seen
	t.mu.Unlock()

	for _, n := range news {
		if t.notify != nil {
			t.notify(n[0], n[1])
		}
	}
	return nextMinute(sums, now, set)
}

// Rows returns one row per running work session ("api · 42m of work"),
// read afresh, and when their text changes next.
func (t *Section) Rows(now time.Time) (lines []string, next time.Time) {
	t.mu.Lock()
	projects, set := t.projects, t.set
	t.mu.Unlock()
	sums := Summarize(projects, now, set, nil)
	for _, sum := range sums {
		lines = append(lines, sum.Line())
	}
	return lines, nextMinute(sums, now, set)
}

// nextMinute is when the first line changes by itself: a running
// session's minute count goes up, or stops counting the gap since the
// last event (the idle gap ended). Zero when no count climbs, so an idle
// tray does not wake every minute for a session nobody works on.
func nextMinute(sums []Summary, now time.Time, set Settings) time.Time {
	var next time.Time
	for _, sum := range sums {
		end := sum.State.climbsUntil(now, set)
		if end.IsZero() {
			continue
		}
		at := earliest(now.Add(time.Minute-sum.Working%time.Minute), end)
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}
