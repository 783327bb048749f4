package app

import (
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

// Runway warns, once each, that a session's context window or an
// account's usage limit is running out (notify.Runway). Its methods are
// called from the loop only.
type Runway interface {
	// Update looks at the live sessions and the accounts at now and sends
	// the warnings that became due.
	Update(now time.Time, sessions []view.Session, accounts []view.Account)
	// Configure applies the [notifications] thresholds after a reload.
	Configure(config.Notifications)
}

// runwayWarnings is the Runway of the real tray: notify.Runway's rules,
// sent through the notifications' queue like every other notification.
type runwayWarnings struct {
	rules *notify.Runway
	n     *Notifications
}

// Runway returns the warnings of rules, sent as n sends.
func (n *Notifications) Runway(rules *notify.Runway) Runway {
	return runwayWarnings{rules: rules, n: n}
}

func (w runwayWarnings) Update(now time.Time, sessions []view.Session, accounts []view.Account) {
	for _, msg := range w.rules.Update(sessions, accounts, now) {
		w.n.enqueue(msg)
	}
}

func (w runwayWarnings) Configure(cfg config.Notifications) { w.rules.SetConfig(cfg) }
