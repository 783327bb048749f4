package view

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/resolver"
)

// Account is one Claude account's usage limits as every surface shows
// them (resolver.Account), under the name of its config directory.
type Account struct {
	resolver.Account
	// Name is the config directory as a person wrote it: "~/.claude",
	// "~/.claude-work".
	Name string
}

// Accounts are the views of accounts, for a home directory home: each
// config directory written out, ~/.claude as itself.
func Accounts(home string, accounts []resolver.Account) []Account {
	out := make([]Account, len(accounts))
	for i, a := range accounts {
		if a.ConfigDir == "" {
			a.ConfigDir = filepath.Join(home, ".claude")
		}
		out[i] = Account{Account: a, Name: WithAgent(accountName(home, a.ConfigDir), a.Agent)}
	}
	return out
}

// accountName writes a config directory under home with "~".
func accountName(home, dir string) string {
	if home != "" {
		if rest, ok := strings.CutPrefix(dir, home+string(filepath.Separator)); ok {
			dir = "~/" + rest
		}
	}
	return text.Line(dir, 60)
}

// Known reports whether any of the account's windows is known at now.
func (a *Account) Known(now time.Time) bool {
	return a.FiveHour.Known(now) != nil || a.SevenDay.Known(now) != nil
}

// Line is the account's usage as one line: "~/.claude: 5h 42% (resets
// in 2h 5m) · week 91% (resets in 3d 4h) · learnt 2m ago", a window that
// is not known said so ("5h unknown"), and "~/.claude: usage unknown"
// when neither is.
func (a *Account) Line(now time.Time) string {
	if !a.Known(now) {
		return a.Name + ": usage unknown"
	}
	learnt := text.Age(now.Sub(a.At))
	if learnt != "now" {
		learnt += " ago"
	}
	return a.Name + ": " + Window("5h", a.FiveHour, now) + " · " + Window("week", a.SevenDay, now) + " · learnt " + learnt
}

// Window is one usage window as a person reads it: "5h 42% (resets in 2h
// 5m)", "week unknown".
func Window(name string, r *resolver.RateLimit, now time.Time) string {
	r = r.Known(now)
	if r == nil {
		return name + " unknown"
	}
	s := name + " " + Percent(r.UsedPercent)
	if !r.ResetsAt.IsZero() {
		s += " (resets in " + text.Duration(r.ResetsAt.Sub(now)) + ")"
	}
	return s
}

// Percent writes a share used as the status line hands it, whole when it
// is ("91%"), else to a tenth ("42.5%").
func Percent(p float64) string {
	return strconv.FormatFloat(math.Round(p*10)/10, 'f', -1, 64) + "%"
}

// AccountLines are the accounts' usage limits, a line each
// (Account.Line), or none while no account's are known: a person
// who logs in with an API key has no such limits, and a line saying so
// for every config directory would only be noise. Once one is known,
// every account is listed, unknown ones said so, never guessed.
func AccountLines(accounts []Account, now time.Time) []string {
	if !slices.ContainsFunc(accounts, func(a Account) bool { return a.Known(now) }) {
		return nil
	}
	lines := make([]string, len(accounts))
	for i := range accounts {
		lines[i] = "Usage " + accounts[i].Line(now)
	}
	return lines
}
