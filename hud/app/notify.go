package app

import (
	"time"

	"github.com/capacitor-hud/hud/hud/attention"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
)

// Notifications is the Notifier of the real tray: hud/notify's rules,
// with sends handed to a goroutine, since a send is a D-Bus round trip (or
// a command) that must not hold up the loop.
type Notifications struct {
	tracker *notify.Tracker
	sender  notify.Sender
	logf    func(format string, args ...any)
	queue   chan notify.Notification
	// Push is the away push (hud/attention); nil: none. Set it before the
	// loop starts.
	Push *attention.Push
}

// NewNotifications starts the sending goroutine; Close ends it.
func NewNotifications(tracker *notify.Tracker, sender notify.Sender, logf func(string, ...any)) *Notifications {
	n := &Notifications{tracker: tracker, sender: sender, logf: logf, queue: make(chan notify.Notification, 32)}
	go func() {
		for msg := range n.queue {
			if err := sender.Send(msg); err != nil {
				logf("notification: %v", err)
			}
		}
	}()
	return n
}

// Close stops the sending goroutine once the notifications queued so far
// are sent. Call it after the loop has returned.
func (n *Notifications) Close() {
	close(n.queue)
	if n.Push != nil {
		n.Push.Close()
	}
}

// Configure implements Notifier: the rules take the new thresholds, the
// sender the new settings (or, when it takes only that, the sound
// setting), the away push its URL and delay.
func (n *Notifications) Configure(cfg config.Notifications) {
	n.tracker.SetConfig(cfg)
	switch s := n.sender.(type) {
	case interface{ Configure(config.Notifications) }:
		s.Configure(cfg)
	case interface{ SetSound(on bool) }:
		s.SetSound(cfg.Sound)
	}
	if n.Push != nil {
		n.Push.Configure(cfg)
	}
}

// Update implements Notifier.
func (n *Notifications) Update(now time.Time, sessions []view.Session) time.Time {
	out, next := n.tracker.Update(sessions, now)
	if n.Push != nil {
		n.Push.Update(now, sessions)
	}
	for _, msg := range out {
		n.enqueue(msg)
	}
	return next
}

// Say implements Notifier.
func (n *Notifications) Say(title, body string) {
	n.enqueue(notify.Notification{Kind: "notice", Title: title, Body: body, Project: "hud"})
}

func (n *Notifications) enqueue(msg notify.Notification) {
	select {
	case n.queue <- msg:
	default:
		// The daemon is stuck; a flood of late bubbles would help no one.
		n.logf("notification dropped (sender busy): %s", msg.Title)
	}
}
