package notify

import (
	"cmp"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
)

// Kind is what a notification is about.
type Kind string

const (
	KindWaiting      Kind = "waiting"       // started waiting for the person
	KindStillWaiting Kind = "still-waiting" // the one reminder
	KindDone         Kind = "done"          // a long turn ended
)

// Notification is one message to show. Title and Body are plain text; the
// Sender makes them safe for its daemon.
type Notification struct {
	Kind      Kind
	SessionID string
	// Project is the name shown for the session (the directory's base).
	Project string
	Title   string
	Body    string
	// Where is the session's terminal (view.Session.Place): a notification
	// the person would read in the terminal they look at is not shown.
	// Zero for a notice about hud itself.
	Where view.Place
}

// tracked is what the Tracker remembers of one session between updates.
type tracked struct {
	state store.State
	since time.Time
	// waitStart is when the current waiting episode began; remindAt when
	// its one reminder is due (zero: none due, or already sent).
	waitStart time.Time
	remindAt  time.Time
	// workStart is when the Tracker saw the current turn begin, for
	// records that lack TurnStartedAt.
	workStart time.Time
	// goneAt is when the session left the list (zero while it is in it).
	goneAt time.Time
}

// forgetAfter is how long the Tracker remembers a session that left the
// list. A session leaves it when it ends, and also while it is out of
// sight: a remote machine's while its connection is down. When it comes
// back still waiting on the same request, that request was announced
// already; after a day it is news again.
const forgetAfter = 24 * time.Hour

// Tracker applies the notification rules across updates. It is not safe
// for concurrent use: call it from the app's event loop.
type Tracker struct {
	cfg      config.Notifications
	sessions map[string]*tracked
	primed   bool
}

// NewTracker returns a Tracker with the given settings.
func NewTracker(cfg config.Notifications) *Tracker {
	return &Tracker{cfg: cfg, sessions: make(map[string]*tracked)}
}

// SetConfig changes the settings (after the settings file was reloaded).
// A pending reminder moves to the new delay, counted from when the wait
// began; a zero delay cancels it.
func (t *Tracker) SetConfig(cfg config.Notifications) {
	t.cfg = cfg
	for _, s := range t.sessions {
		if !s.remindAt.IsZero() {
			s.remindAt = t.reminderTime(s.waitStart)
		}
	}
}

// Update takes the live sessions as just resolved and the time, and
// returns the notifications to send now and when Update must be called
// again even if nothing changes (zero: not needed). Call it after every
// re-resolution and when that moment comes.
//
// The first Update only learns the situation: sessions that were already
// waiting when the tray started are not announced (a restart of the tray
// must not repeat them), but their reminder still comes if it is not yet
// due.
//
// A session's Since may be zero (unknown): it is then taken as the moment
// the Tracker first saw it in that state.
//
// A session missing from sessions may have ended or only be out of sight
// (a remote machine's, while the connection is down): it gets no reminder
// while it is missing, and if it comes back within a day still waiting on
// the same request, that request is not announced again (see returned).
func (t *Tracker) Update(sessions []view.Session, now time.Time) (out []Notification, next time.Time) {
	seen := make(map[string]bool, len(sessions))
	for _, s := range sessions {
		seen[s.Key] = true
		prev, known := t.sessions[s.Key]
		switch {
		case !known:
			prev = &tracked{}
			t.sessions[s.Key] = prev
		case !prev.goneAt.IsZero():
			returned(prev, s)
		}
		out = append(out, t.step(prev, s, now)...)
	}
	for id, s := range t.sessions {
		switch {
		case seen[id]:
		case s.goneAt.IsZero():
			s.goneAt = now
		case now.Sub(s.goneAt) >= forgetAfter:
			delete(t.sessions, id)
		}
	}
	t.primed = true

	for _, s := range t.sessions {
		// No reminder for a session out of the list: it may have ended.
		if at := s.remindAt; !at.IsZero() && s.goneAt.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return out, next
}

// returned takes back a session that left the list and is in it again.
// Still waiting on the request it waited on when it left (one that began
// before it left), it goes on as if it had never gone: that request was
// announced, and its reminder, due or not, is still to come. Anything else
// starts afresh, as a session first seen: a wait that began meanwhile is
// news, a turn that ended meanwhile ended at an unknown distance.
func returned(prev *tracked, s view.Session) {
	sameWait := prev.state == store.StateWaiting && s.State == store.StateWaiting &&
		!s.Since.After(prev.goneAt)
	if !sameWait {
		*prev = tracked{}
	}
	prev.goneAt = time.Time{}
}

// step applies the rules to one session; prev is what the Tracker knew of
// it (the zero tracked for a session seen for the first time).
func (t *Tracker) step(prev *tracked, s view.Session, now time.Time) []Notification {
	since := s.Since
	switch {
	case since.IsZero() && prev.state == s.State && !prev.since.IsZero():
		since = prev.since // unknown, but the same state as before
	case since.IsZero() || since.After(now):
		since = now
	}
	var out []Notification
	switch s.State {
	case store.StateWaiting:
		// One episode lasts as long as the session stays waiting. Its
		// Since may move meanwhile: Claude Code's own file often says
		// "waiting" a few milliseconds before the PermissionRequest hook
		// writes the record, and the resolver then switches from the one
		// to the other. That is not a second request.
		if prev.state != store.StateWaiting {
			prev.waitStart = since
			prev.remindAt = t.reminderTime(since)
			// After the first Update anything new is news, a session that
			// first shows up already waiting included.
			if t.primed && t.cfg.Permission {
				out = append(out, waitingNotification(s))
			}
			// Seen only when its reminder was already due (the tray just
			// started, or the wait was noticed late): a reminder now
			// would say the same thing twice.
			if !prev.remindAt.After(now) {
				prev.remindAt = time.Time{}
			}
		}
		if !prev.remindAt.IsZero() && !prev.remindAt.After(now) {
			out = append(out, stillWaitingNotification(s, now.Sub(prev.waitStart)))
			prev.remindAt = time.Time{}
		}
	case store.StateWorking, store.StateCompacting:
		prev.remindAt = time.Time{}
		if prev.workStart.IsZero() || prev.state == store.StateReady {
			prev.workStart = since
		}
	case store.StateReady:
		prev.remindAt = time.Time{}
		// Ready by Claude Code's own status rather than a Stop hook: the
		// person pressed Esc, so there is nothing to announce.
		interrupted := s.ByClaude
		if prev.state == store.StateWorking && t.cfg.Done && !interrupted {
			start := s.TurnStartedAt
			if start.IsZero() {
				start = prev.workStart
			}
			if took := since.Sub(start); !start.IsZero() && took >= t.cfg.DoneAfterTurn {
				out = append(out, doneNotification(s, took))
			}
		}
		prev.workStart = time.Time{}
	default:
		prev.remindAt = time.Time{}
	}
	prev.state, prev.since = s.State, since
	return out
}

// reminderTime is when a waiting episode that began at start gets its
// reminder; zero when reminders are off.
func (t *Tracker) reminderTime(start time.Time) time.Time {
	if t.cfg.StillWaitingAfter <= 0 {
		return time.Time{}
	}
	return start.Add(t.cfg.StillWaitingAfter)
}

func waitingNotification(s view.Session) Notification {
	return notification(KindWaiting, s, "needs you", cmp.Or(s.WaitingFor, registry.Label(s.Agent)+" is waiting for you."))
}

func stillWaitingNotification(s view.Session, waited time.Duration) Notification {
	return notification(KindStillWaiting, s, "is still waiting", withDetail("Waiting for "+text.Duration(waited), s.WaitingFor))
}

func doneNotification(s view.Session, took time.Duration) Notification {
	return notification(KindDone, s, "is done", withDetail("Finished after "+text.Duration(took), s.WorkingOn))
}

// notification is about s, named by its one name in the title: "api ·
// auth refactor needs you".
func notification(kind Kind, s view.Session, title, body string) Notification {
	name := s.Name()
	return Notification{Kind: kind, SessionID: s.Key, Project: name, Title: name + " " + title, Body: body, Where: s.Place()}
}

// withDetail is lead, then ": " and detail when there is one.
func withDetail(lead, detail string) string {
	if detail == "" {
		return lead
	}
	return lead + ": " + detail
}

// Waiting is the notification that s waits for the person, as the rules
// send it; the away push says the same.
func Waiting(s view.Session) Notification { return waitingNotification(s) }
