package notify

import (
	"fmt"
	"strconv"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/resolver"
)

// The runway's warnings.
const (
	KindContext Kind = "context" // a session's context window is nearly full
	KindUsage   Kind = "usage"   // an account has used most of a usage window
)

// Runway warns, once each, that room is running out: a session whose
// context window reaches the [notifications] context_at share (Claude
// will compact it soon), an account that reaches usage_at of its 5-hour
// or weekly limit. A session is warned again only after its share fell
// below the threshold (a compaction) and rose past it anew; an account's
// window once per period (its reset time). Like the Tracker, the first
// Update only learns: a tray that restarts says nothing it said before.
// Not safe for concurrent use: call it from the app's event loop.
type Runway struct {
	contextAt, usageAt int
	// context holds the sessions over the threshold (warned, or already
	// over when first seen); usage the account windows, by
	// usageKey, likewise.
	context map[string]bool
	usage   map[string]bool
	primed  bool
}

// NewRunway returns the warnings with the thresholds of cfg.
func NewRunway(cfg config.Notifications) *Runway {
	r := &Runway{context: map[string]bool{}, usage: map[string]bool{}}
	r.SetConfig(cfg)
	return r
}

// SetConfig takes new thresholds (after the settings file was reloaded).
func (r *Runway) SetConfig(cfg config.Notifications) {
	r.contextAt, r.usageAt = int(cfg.ContextAt), int(cfg.UsageAt)
}

// Update looks at the live sessions and the accounts at now and returns
// the warnings to send.
func (r *Runway) Update(sessions []view.Session, accounts []view.Account, now time.Time) []Notification {
	var out []Notification
	over := map[string]bool{}
	for i := range sessions {
		s := &sessions[i]
		if r.contextAt <= 0 || s.Context == nil || s.Context.Percent() < r.contextAt {
			continue
		}
		over[s.Key] = true
		if !r.context[s.Key] && r.primed {
			out = append(out, contextWarning(s))
		}
	}
	r.context = over

	over = map[string]bool{}
	for i := range accounts {
		a := &accounts[i]
		for _, w := range []struct {
			name  string
			limit *resolver.RateLimit
		}{{"5-hour", a.FiveHour.Known(now)}, {"weekly", a.SevenDay.Known(now)}} {
			if r.usageAt <= 0 || w.limit == nil || w.limit.UsedPercent < float64(r.usageAt) {
				continue
			}
			key := usageKey(a, w.name, w.limit)
			over[key] = true
			if !r.usage[key] && r.primed {
				out = append(out, usageWarning(a, w.name, w.limit, now))
			}
		}
	}
	r.usage = over
	r.primed = true
	return out
}

// usageKey names one period of one window of an account.
func usageKey(a *view.Account, window string, l *resolver.RateLimit) string {
	return a.ConfigDir + "\x00" + window + "\x00" + strconv.FormatInt(l.ResetsAt.Unix(), 10)
}

// contextWarning: "api: context 87 %, Claude will compact soon".
func contextWarning(s *view.Session) Notification {
	c := s.Context
	name := s.Name()
	return Notification{Kind: KindContext, SessionID: s.Key, Project: name,
		Title: fmt.Sprintf("%s: context %d %%, %s will compact soon", name, c.Percent(), registry.Label(s.Agent)),
		Body:  fmt.Sprintf("%s of %s tokens in use", view.Tokens(c.Tokens), view.Tokens(c.Window))}
}

// usageWarning: "~/.claude: 91% of the weekly limit used", with when it
// resets.
func usageWarning(a *view.Account, window string, l *resolver.RateLimit, now time.Time) Notification {
	body := "The reset time is not known."
	if !l.ResetsAt.IsZero() {
		body = "It resets in " + text.Duration(l.ResetsAt.Sub(now)) + "."
	}
	return Notification{Kind: KindUsage, Project: a.Name,
		Title: fmt.Sprintf("%s: %s of the %s limit used", a.Name, view.Percent(l.UsedPercent), window),
		Body:  body}
}
