package resolver

import (
	"slices"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// Account is one Claude account's usage limits, as the newest status line
// of a session of its config directory gave them: a login's 5-hour and
// weekly windows. A window Claude did not give (an API-key login, a
// config directory no status line has run in yet), or gave out of bounds
// (RateLimit.checked), is nil: unknown, never a guess.
type Account struct {
	// Agent is the agent whose account it is: "" for Claude Code,
	// another agent's name for its home ("codex").
	Agent string `json:"agent,omitempty"`
	// ConfigDir is the account's Claude config directory, normalized; ""
	// for ~/.claude. For Codex, its home (~/.codex, $CODEX_HOME).
	ConfigDir string `json:"config_dir"`
	// At is when the figures were learnt; zero when nothing is known.
	At       time.Time  `json:"at,omitzero"`
	FiveHour *RateLimit `json:"five_hour,omitempty"`
	SevenDay *RateLimit `json:"seven_day,omitempty"`
}

// Known is the window's figure as of now: nil once its reset time has
// passed, since the used share then began again from nothing hud has
// seen.
func (r *RateLimit) Known(now time.Time) *RateLimit {
	if r == nil || (!r.ResetsAt.IsZero() && !now.Before(r.ResetsAt)) {
		return nil
	}
	return r
}

// Accounts are the usage limits of every followed config directory
// (dirs, normalized; the default one as itself or "") and of any other a
// recorded status line names, in the order of dirs and then by name. Each
// takes the figures of the newest status line of its directory: an
// account's sessions share its limits, and a newer line without limits
// (Claude gave null) means none are known now.
func Accounts(l paths.Layout, dirs []string, lines map[string]StatusLine) []Account {
	byDir := map[string]*Account{}
	var order []string
	norm := func(dir string) string {
		if dir == l.DefaultConfigDir() {
			return ""
		}
		return dir
	}
	add := func(dir string) *Account {
		dir = norm(dir)
		if a, ok := byDir[dir]; ok {
			return a
		}
		a := &Account{ConfigDir: dir}
		byDir[dir] = a
		order = append(order, dir)
		return a
	}
	for _, d := range dirs {
		add(d)
	}
	var extra []string
	for _, sl := range lines {
		if d := norm(sl.ConfigDir); byDir[d] == nil && !slices.Contains(extra, d) {
			extra = append(extra, d)
		}
	}
	slices.Sort(extra)
	for _, d := range extra {
		add(d)
	}
	newest := map[string]time.Time{}
	for _, sl := range lines {
		a := add(sl.ConfigDir)
		if t, ok := newest[a.ConfigDir]; ok && !sl.At.After(t) {
			continue
		}
		newest[a.ConfigDir] = sl.At
		a.At, a.FiveHour, a.SevenDay = sl.At, sl.FiveHour, sl.SevenDay
		if a.FiveHour == nil && a.SevenDay == nil {
			a.At = time.Time{}
		}
	}
	out := make([]Account, len(order))
	for i, d := range order {
		out[i] = *byDir[d]
	}
	return out
}
