package resolver

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// FreshTTL is how long a record without a lock is trusted. It covers the
// moments before a lock exists (the hook has written the record but the
// holder has not taken its lock yet), never the time after a process died.
const FreshTTL = 30 * time.Second

// Liveness reports whether the process pid is running and, when started is
// non-zero, is the process that started then (Unix seconds) rather than a
// later process that reused the pid. proc.Alive is the real one; the
// resolver never asks the OS itself, so its rules are table-testable.
type Liveness func(pid int, started int64) bool

// Snapshot is everything the resolver reads, as the loaders found it.
type Snapshot struct {
	// Store is never nil after LoadSnapshot; a nil Store reads as empty.
	Store *store.Store
	// Locks are the lock directories found, live or stale.
	Locks []Lock
	// Claude are Claude Code's own session files whose pid still names the
	// process that wrote them.
	Claude []ClaudeSession
	// LockDirs are the sessions/ directories read, one per followed
	// config directory (FollowedConfigDirs): what a watcher watches.
	LockDirs []string
	// TurnEnds are the turn ends agents' own transcripts record, by
	// session id (LoadTurnEnds).
	TurnEnds map[string]TurnEnd
	// AgentLogDirs are the directories of those transcripts: what a
	// watcher watches too, since only the transcript changes when a turn
	// ends without a hook.
	AgentLogDirs []string
	// Contexts are the context windows in use of Claude Code's sessions,
	// by session id (LoadContexts).
	Contexts map[string]Context
	// Accounts are the usage limits of each Claude config directory
	// (Accounts).
	Accounts []Account
}

// Source says why a session counts as live.
type Source string

const (
	// SourceLock: a lock holder vouches for a live Claude process.
	SourceLock Source = "lock"
	// SourceFresh: no lock yet, but the record was updated within FreshTTL
	// by a process not known to be dead.
	SourceFresh Source = "fresh"
)

// Session is one live session as the HUD shows it.
type Session struct {
	SessionID string
	// State is what to show: the record's state, corrected by Claude Code's
	// own session file when that is clearly newer (see Opinion).
	State store.State
	// Since is when State began: the record's state_changed_at, or the time
	// Claude changed its status when the second opinion decided.
	Since  time.Time
	Source Source
	// PID is the live Claude process: the lock's when there is one, else
	// the record's (0 when unknown).
	PID int
	// CWD is the record's cwd, else the lock's path.
	CWD string
	// Record is nil for a live lock whose session has no record (yet).
	Record *store.Record
	// Lock is nil for SourceFresh.
	Lock *Lock
	// Opinion is the Claude Code session file that changed State; nil when
	// State is the record's own.
	Opinion *ClaudeSession
	// TurnEnd is the transcript's turn end that made the session ready;
	// nil when the hooks decided.
	TurnEnd *TurnEnd
	// Claude is Claude Code's own session file of the session, whether or
	// not it changed State; nil when there is none (older releases).
	Claude *ClaudeSession
	// Context is how full the session's context window is; nil when
	// unknown.
	Context *Context
}

// Name is Claude's name for the session, as worth showing beside its
// project ("auth refactor"): "" when Claude made it up from the directory
// name, or when it only repeats the prompt the session works on (a
// background session is named after its prompt).
func (s *Session) Name() string {
	if s.Claude == nil {
		return ""
	}
	name := strings.TrimSpace(s.Claude.DisplayName())
	if s.Record != nil && name == strings.TrimSpace(firstLine(s.Record.WorkingOn)) {
		return ""
	}
	return name
}

// WithName is how every view labels a session that has a name: its
// project's label, a middle dot, the name ("api · auth refactor").
func WithName(label, name string) string {
	if name == "" {
		return label
	}
	return label + " · " + name
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Key identifies the session among the live ones: its id, or for a live
// lock whose session id is not known yet, its lock directory.
func (s *Session) Key() string {
	if s.SessionID == "" && s.Lock != nil {
		return "lock:" + s.Lock.Dir
	}
	return s.SessionID
}

// UpdatedAt is when the session's record last changed, or when its lock was
// taken if it has no record.
func (s *Session) UpdatedAt() time.Time {
	if s.Record != nil {
		return s.Record.UpdatedAt.Time
	}
	if s.Lock != nil {
		return time.Unix(s.Lock.Created, 0).UTC()
	}
	return time.Time{}
}

// Resolution answers "what is Claude doing in this project?" with the
// details of how it was decided.
type Resolution struct {
	Session
	// IsFromLock is true when a live lock at or under the project decided.
	IsFromLock bool
	// Match is how the session's cwd relates to the queried path (for a
	// lock whose session wandered elsewhere, how the lock's path does).
	Match paths.Match
}

// ResolveState applies these rules to project (a normalized path):
//
//  1. A live lock at or under project (exact or child path) decides; its
//     session's record is the one its meta names, else the one its process
//     last wrote, else the closest by path (exact > child > parent).
//  2. Without one, a record updated within FreshTTL whose cwd is project or
//     under it (never a parent: a session started in / is not this
//     project's), not idle, and whose process is not known to be dead.
//
// Among equally good candidates the one that needs the person most wins
// (State.Attention), then the most recently updated. ok is false when no
// session is active there.
func ResolveState(snap Snapshot, project string, now time.Time, alive Liveness) (res Resolution, ok bool) {
	project = paths.NormalizeLexical(project)
	r := newRun(snap, now, alive)
	if res, ok := r.resolveByLock(project); ok {
		return res, true
	}
	return r.resolveFresh(project)
}

// ResolveAll returns every live session, one per session id, the ones that
// need the person most first. A session is live while a live lock names it
// or its process (SourceLock), or, before any lock exists, while its record
// is fresh (SourceFresh).
func ResolveAll(snap Snapshot, now time.Time, alive Liveness) []Session {
	r := newRun(snap, now, alive)
	var out []Session
	index := map[string]int{} // session key → position in out
	for _, l := range r.live {
		s := r.session(r.recordForLock(l), l, SourceLock)
		key := s.Key()
		if i, dup := index[key]; dup {
			// `claude --resume` while the old process still runs: two
			// locks, one session. Show the process the record follows.
			if preferLock(&s, &out[i]) {
				out[i] = s
			}
			continue
		}
		index[key] = len(out)
		out = append(out, s)
	}
	for _, rec := range r.records {
		if _, shown := index[rec.SessionID]; shown || r.lockOfProcess(rec) != nil {
			// A process with a live lock is shown through its lock, with
			// the session it ran last.
			continue
		}
		if r.fresh(rec) {
			index[rec.SessionID] = len(out)
			out = append(out, r.session(rec, nil, SourceFresh))
		}
	}
	slices.SortStableFunc(out, func(a, b Session) int {
		return cmp.Or(
			cmp.Compare(b.State.Attention(), a.State.Attention()),
			b.UpdatedAt().Compare(a.UpdatedAt()),
			cmp.Compare(a.SessionID, b.SessionID),
		)
	})
	return out
}

// Aggregate is the one state that sums up sessions: the one that needs the
// person most (waiting > working > compacting > ready), idle when none is
// live.
func Aggregate(sessions []Session) store.State {
	agg := store.StateIdle
	for _, s := range sessions {
		if s.State.Attention() > agg.Attention() {
			agg = s.State
		}
	}
	return agg
}

// resolveByLock is step 1 of ResolveState.
func (r *run) resolveByLock(project string) (Resolution, bool) {
	var best Resolution
	bestMatch := paths.NoMatch
	for _, l := range r.live {
		m := paths.Compare(project, paths.NormalizeLexical(l.Path))
		if m != paths.MatchExact && m != paths.MatchChild {
			continue
		}
		s := r.session(r.recordForLock(l), l, SourceLock)
		if bestMatch != paths.NoMatch && !betterSession(m, &s, bestMatch, &best.Session) {
			continue
		}
		match := paths.Compare(project, paths.NormalizeLexical(s.CWD))
		if match == paths.NoMatch {
			match = m
		}
		best, bestMatch = Resolution{Session: s, IsFromLock: true, Match: match}, m
	}
	return best, bestMatch != paths.NoMatch
}

// betterSession orders lock-based candidates like betterCandidate, with
// the resolved state and, for two locks of one session, preferLock.
func betterSession(m paths.Match, s *Session, bestMatch paths.Match, best *Session) bool {
	if m != bestMatch {
		return m > bestMatch
	}
	if a, b := s.State.Attention(), best.State.Attention(); a != b {
		return a > b
	}
	if c := s.UpdatedAt().Compare(best.UpdatedAt()); c != 0 {
		return c > 0
	}
	return preferLock(s, best)
}

// resolveFresh is step 2 of ResolveState.
func (r *run) resolveFresh(project string) (Resolution, bool) {
	var best *store.Record
	bestMatch := paths.NoMatch
	for _, rec := range r.records {
		m := paths.Compare(project, paths.NormalizeLexical(rec.CWD))
		if m != paths.MatchExact && m != paths.MatchChild {
			continue
		}
		if !r.fresh(rec) {
			continue
		}
		if best == nil || betterCandidate(m, rec, bestMatch, best) {
			best, bestMatch = rec, m
		}
	}
	if best == nil {
		return Resolution{}, false
	}
	return Resolution{Session: r.session(best, nil, SourceFresh), Match: bestMatch}, true
}

// session builds the Session for a record and/or a lock, and lets Claude
// Code's own session file correct the state.
func (r *run) session(rec *store.Record, l *Lock, src Source) Session {
	s := Session{Source: src, Record: rec, Lock: l}
	if rec != nil {
		s.SessionID = rec.SessionID
		s.State = rec.State
		s.Since = rec.StateChangedAt.Time
		if s.Since.IsZero() {
			s.Since = rec.UpdatedAt.Time
		}
		s.CWD = rec.CWD
		s.PID = rec.PID
	} else if l != nil {
		// A live process whose record is not written yet, or was lost: it
		// is running and, having done nothing we know of, ready.
		s.SessionID = l.SessionID
		s.State = store.StateReady
		s.Since = time.Unix(l.Created, 0).UTC()
		s.CWD = l.Path
	}
	if l != nil {
		s.PID = l.PID
	}
	if c := r.claudeSessionFor(s.SessionID, s.PID); c != nil {
		s.Claude = c
		if state, since, ok := SecondOpinion(rec, c, r.now); ok {
			s.State, s.Since, s.Opinion = state, since, c
		}
	}
	if c, ok := r.snap.Contexts[s.SessionID]; ok {
		s.Context = &c
	}
	if end, ok := r.snap.TurnEnds[s.SessionID]; ok {
		if state, since, ok := TurnEndOpinion(rec, end); ok {
			s.State, s.Since, s.TurnEnd = state, since, &end
		}
	}
	return s
}
