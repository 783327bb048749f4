package worksession

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
)

// Summary is a running session as the tray shows it.
type Summary struct {
	Project string
	State   *State
	// Working is the working time now, climbing between hook events.
	Working time.Duration
}

// Summarize reads the sessions of the given projects (the tray passes the
// project directories of the live Claude sessions) and returns those that
// run, in the order given. Projects without a session, or whose file does
// not parse, are left out; errors other than "no session" go to logf.
func Summarize(projects []string, now time.Time, set Settings, logf func(string, ...any)) []Summary {
	var out []Summary
	seen := map[string]bool{}
	for _, p := range projects {
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		s, err := Load(p)
		if err != nil {
			if err != ErrNoSession && logf != nil {
				logf("work session: %v", err)
			}
			continue
		}
		out = append(out, Summary{Project: p, State: s, Working: s.Working(now, set)})
	}
	return out
}

// Line is the menu row: "api · 42m of work", "api · paused (lunch) ·
// 42m of work", "api · timed out at 1h 30m — take a break". Working time
// is said in whole minutes: the tray refreshes the row once a minute.
func (sum Summary) Line() string {
	// The file is the project's: what it says is shown as plain text.
	name := text.Line(sum.State.Scope, 40)
	if name == "" {
		name = text.Line(filepath.Base(sum.Project), 40)
	}
	worked := text.Duration(sum.Working.Truncate(time.Minute))
	work := worked + " of work"
	switch {
	case sum.State.TimedOut():
		return fmt.Sprintf("%s · timed out at %s — take a break", name, worked)
	case sum.State.Status == Paused:
		reason := "paused"
		if p, ok := sum.State.OpenPause(); ok && p.Reason != "" {
			reason = "paused (" + text.Line(p.Reason, 60) + ")"
		}
		return fmt.Sprintf("%s · %s · %s", name, reason, work)
	}
	return name + " · " + work
}
