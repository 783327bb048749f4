package resolver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// An AgentLog is how to read one coding agent's own log (its transcript,
// Codex's rollout): the second opinion for the turn ends its hooks miss,
// as Claude's session file is for Claude's. The agent knows where its log
// lies and what its lines mean; the resolver reads it, bounded and never
// through a link, and decides what the figures change (TurnEndOpinion).
type AgentLog interface {
	// Path is rec's log and the agent's home it lies in, "" when there is
	// none to read: only a path where and as the agent keeps its logs, so
	// a payload cannot make hud read or watch anything else.
	Path(l paths.Layout, rec *store.Record) (path, home string)
	// TurnEnd finds the newest turn end in the log's tail, which starts at
	// a whole line and was last written at modified.
	TurnEnd(tail []byte, modified time.Time) (TurnEnd, bool)
}

// An AgentRunway is an AgentLog that also records the context in use and
// its account's limits (Codex's token_count events).
type AgentRunway interface {
	AgentLog
	// Runway finds the newest figures in the log's tail, which may start
	// mid-line. The account, when there is one, names its agent; its
	// ConfigDir is the log's home.
	Runway(tail []byte) (Context, *Account, bool)
}

// AgentLogs gives the log of the agent a record names (its agent field):
// nil for an agent whose hooks tell it all, or one this version does not
// know. The registry of agents (hud/agent/registry) is the real one.
type AgentLogs func(agent string) AgentLog

// TurnEnd is the end of a session's last turn as the agent's own log
// records it: the second opinion for the turns whose end fires no hook.
type TurnEnd struct {
	At    time.Time
	Error string
}

// maxTranscriptTail bounds what is read of a transcript: its newest
// lines, where a turn's end is. Transcripts grow for as long as a session
// lives.
const maxTranscriptTail = 64 << 10

// LoadTurnEnds reads the logs of the store's sessions that show a turn
// running (working, waiting), each by its agent's AgentLog, and returns
// their newest turn ends, by session id, and the directories the logs are
// in, for a watcher. Files it cannot read, and logs that record no end,
// are left out: the hooks decide.
func LoadTurnEnds(l paths.Layout, st *store.Store, logs AgentLogs) (map[string]TurnEnd, []string) {
	if st == nil || logs == nil {
		return nil, nil
	}
	var ends map[string]TurnEnd
	var dirs []string
	for id, rec := range st.Sessions {
		if rec == nil || (rec.State != store.StateWorking && rec.State != store.StateWaiting) {
			continue
		}
		log := logs(rec.Agent)
		if log == nil {
			continue
		}
		path, home := log.Path(l, rec)
		if path == "" || !realDirsBelow(home, filepath.Dir(path)) {
			continue
		}
		dirs = append(dirs, filepath.Dir(path))
		tail, err := safefile.ReadTail(path, maxTranscriptTail, safefile.NoFollow)
		if err != nil {
			continue
		}
		// Stat after the read: the time is never older than what was read.
		fi, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if end, ok := log.TurnEnd(wholeLines(tail, maxTranscriptTail), fi.ModTime()); ok {
			if ends == nil {
				ends = map[string]TurnEnd{}
			}
			ends[id] = end
		}
	}
	return ends, dirs
}

// wholeLines is a tail of at most n bytes from its first whole line: a
// tail as long as n may start mid-line, and a line's end is no line.
func wholeLines(tail []byte, n int) []byte {
	if len(tail) >= n {
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			return tail[i+1:]
		}
	}
	return tail
}

// TurnEndOpinion decides whether the log's turn end overrides the state
// of rec: a turn the record still shows running (working, waiting) that
// the log ended after the record last heard of it is over, and the
// session ready. An end from before the record's last event is an earlier
// turn's.
func TurnEndOpinion(rec *store.Record, end TurnEnd) (store.State, time.Time, bool) {
	if rec == nil || (rec.State != store.StateWorking && rec.State != store.StateWaiting) {
		return "", time.Time{}, false
	}
	if !end.At.After(rec.UpdatedAt.Time) {
		return "", time.Time{}, false
	}
	return store.StateReady, end.At.UTC(), true
}

// realDirsBelow reports whether every directory from below home down to
// dir (which lies under home) is a real directory, not a link: the tray
// watches dir, and a link would make it watch wherever the link points.
// A directory not made yet is not watched yet either.
func realDirsBelow(home, dir string) bool {
	rest, ok := strings.CutPrefix(dir, home+string(filepath.Separator))
	if !ok {
		return false
	}
	at := home
	for _, name := range strings.Split(rest, string(filepath.Separator)) {
		at = filepath.Join(at, name)
		fi, err := os.Lstat(at)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}
