package app

import (
	"time"

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
func (n *Notifications) Close() { close(n.queue) }

// Configure implements Notifier: the rules take the new thresholds, the
// sender (when it plays one) the new sound setting.
func (n *Notifications) Configure(cfg config.Notifications) {
	n.tracker.SetConfig(cfg)
	if s, ok := n.sender.(interface{ SetSound(on bool) }); ok {
		s.SetSound(cfg.Sound)
	}
}

// Update implements Notifier.
func (n *Notifications) Update(now time.Time, sessions []view.Session) time.Time {
	out, next := n.tracker.Update(sessions, now)
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
