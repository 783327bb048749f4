package ledger

import (
	"time"

	"github.com/capacitor-hud/hud/hud/view"
)

// A Recorder turns what a surface shows into the ledger's state entries:
// one for each session whose state, or what it waits for, changed since
// the last Observe, and an Ended for each session gone. It is the pure
// core of Follow and of the tray's record of remote machines.
type Recorder struct {
	last map[string]Entry
	// ended is when each session was recorded ended: one seen again
	// starts no earlier, or the ledger would say it ended while it lives.
	ended map[string]time.Time
	// latest is the newest entry a resumed recorder read back, until its
	// first Observe.
	latest time.Time
}

// NewRecorder starts from the sessions entries say are live (their last
// state entry is not Ended), so a recorder that takes over from another
// writes only what changed since.
func NewRecorder(entries []Entry, owns func(Entry) bool) *Recorder {
	r := &Recorder{last: map[string]Entry{}, ended: map[string]time.Time{}}
	for _, e := range entries {
		if !e.IsState() || !owns(e) {
			continue
		}
		if e.State == Ended {
			delete(r.last, e.Key)
			r.ended[e.Key] = e.T
		} else {
			r.last[e.Key] = e
		}
	}
	return r
}

// resumed notes the newest of the entries read back: a session that
// ended while no recorder ran is recorded ended then if that was long
// ago (a time it is known to have lasted to, at worst), not now.
func (r *Recorder) resumed(entries []Entry) {
	for _, e := range entries {
		if e.T.After(r.latest) {
			r.latest = e.T
		}
	}
}

// Observe returns the entries for sessions, the whole set the recorder
// follows, as seen at now. A session seen for the first time starts when
// its state did (its Since), if that is not in the future.
func (r *Recorder) Observe(now time.Time, sessions []view.Session) []Entry {
	var out []Entry
	seen := make(map[string]bool, len(sessions))
	for i := range sessions {
		s := &sessions[i]
		if s.SessionID == "" {
			continue // a lock whose hooks have not spoken yet
		}
		e := entryOf(s, now)
		seen[e.Key] = true
		old, ok := r.last[e.Key]
		if ok && old.State == e.State && old.For == e.For {
			continue
		}
		if !ok && !s.Since.IsZero() && s.Since.Before(now) {
			e.T = maxTime(s.Since, r.ended[e.Key])
		}
		delete(r.ended, e.Key)
		r.last[e.Key] = e
		out = append(out, e)
	}
	gone := now
	if !r.latest.IsZero() && now.Sub(r.latest) > time.Minute {
		gone = r.latest
	}
	r.latest = time.Time{}
	for key, old := range r.last {
		if seen[key] {
			continue
		}
		delete(r.last, key)
		r.ended[key] = maxTime(gone, old.T)
		out = append(out, Entry{T: r.ended[key], Key: key, Host: old.Host, Agent: old.Agent, Project: old.Project, Name: old.Name, State: Ended})
	}
	return out
}

// KeyOf is a session's key in the ledger: a remote one's carries its host.
func KeyOf(s *view.Session) string {
	if s.Host != "" {
		return s.Host + "/" + s.Key
	}
	return s.Key
}

// entryOf is the state entry of s at now.
func entryOf(s *view.Session, now time.Time) Entry {
	e := Entry{T: now, Key: KeyOf(s), Host: s.Host, Agent: s.Agent, Project: s.ProjectDir,
		Name: s.ClaudeName, State: string(s.State), For: s.WaitingFor, ByClaude: s.ByClaude}
	if a := s.Activity; a != nil {
		e.Commits, e.Files, e.Todos = a.Commits, a.FilesEdited, a.TodosDone
	}
	if s.Context != nil {
		e.Context = s.Context.Percent()
	}
	return e
}
