package resolver

import (
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

// Claude Code runs the status line command for one session and hands it
// that session's id, and the command runs only while the session lives: the
// line's own session is live whatever the locks say. Its state is
// corrected by Claude's own file with the rules every surface shares
// (SecondOpinion), also when the resolver left the session out.

// WithSelf returns sessions with the session a status line is drawn for
// (sessionID, in Claude process pid when known) corrected as above, or
// added when the resolver left it out (no lock in a followed config
// directory and a record too old to count as fresh, or no record yet).
func WithSelf(snap Snapshot, sessions []Session, sessionID string, pid int, now time.Time) []Session {
	if sessionID == "" {
		return sessions
	}
	c := newestClaudeFile(snap.Claude, sessionID, pid)
	i := -1
	for j := range sessions {
		if sessions[j].SessionID == sessionID {
			i = j
			break
		}
	}
	if i < 0 {
		s, ok := selfSession(snap, sessionID, c)
		if !ok {
			return sessions
		}
		sessions = append(sessions, s)
		i = len(sessions) - 1
	}
	s := &sessions[i]
	if s.Claude == nil {
		s.Claude = c
	}
	if state, since, ok := SecondOpinion(s.Record, c, now); ok {
		s.State, s.Since, s.Opinion = state, since, c
	}
	return sessions
}

// selfSession builds the line's own session from its record, else from
// Claude's file alone.
func selfSession(snap Snapshot, sessionID string, c *ClaudeSession) (Session, bool) {
	var rec *store.Record
	if snap.Store != nil {
		rec = snap.Store.Sessions[sessionID]
	}
	switch {
	case rec != nil:
		s := Session{SessionID: sessionID, State: rec.State, Since: rec.StateChangedAt.Time, Source: SourceFresh,
			PID: rec.PID, CWD: rec.CWD, Record: rec}
		if s.Since.IsZero() {
			s.Since = rec.UpdatedAt.Time
		}
		return s, true
	case c != nil:
		state, ok := claudeState(c.Status)
		if !ok {
			state = store.StateReady
		}
		return Session{SessionID: sessionID, State: state, Since: c.StatusSince(), Source: SourceFresh,
			PID: c.PID, CWD: c.CWD, Opinion: c}, true
	}
	return Session{}, false
}

// claudeState maps Claude's own status to a state.
func claudeState(status string) (store.State, bool) {
	switch status {
	case ClaudeStatusBusy:
		return store.StateWorking, true
	case ClaudeStatusWaiting:
		return store.StateWaiting, true
	case ClaudeStatusIdle:
		return store.StateReady, true
	}
	return "", false
}

// newestClaudeFile is the newest of Claude's files naming the session
// (in process pid, when known).
func newestClaudeFile(files []ClaudeSession, sessionID string, pid int) *ClaudeSession {
	var best *ClaudeSession
	for i := range files {
		c := &files[i]
		if c.SessionID != sessionID || (pid != 0 && c.PID != pid) {
			continue
		}
		if best == nil || c.UpdatedAt > best.UpdatedAt {
			best = c
		}
	}
	return best
}
