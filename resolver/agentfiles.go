package resolver

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/safefile"
)

// An agent's own session log is the second opinion for what its hooks
// miss, as Claude's session file is for Claude: Gemini CLI and Copilot CLI
// fire no hook when the person denies a permission, and Copilot none when
// Esc stops a turn or a model error ends one. Each writes the moment to its
// log: Gemini's chat file (~/.gemini/tmp/<project>/chats/session-*.jsonl)
// an info record "Request cancelled.", Copilot's
// ~/.copilot/session-state/<id>/events.jsonl an abort or a session.error.
//
// The rule: a working or waiting record whose agent's log ended the turn
// after the record's last hook event is ready, since that moment. Any
// hook after it (the next prompt) is newer and wins again, so the log
// never holds a session back.

// AgentTurnEnd is a turn end an agent's log records and its hooks do not.
type AgentTurnEnd struct {
	// At is when the log says the turn ended.
	At time.Time
	// Error is the model error that ended it; "" for a denial or an Esc.
	Error string
	// Path is the log read.
	Path string
}

// agentLogTail bounds what is read of a log: its newest lines, where a
// turn's end is. The logs grow for as long as a session lives.
const agentLogTail = 64 << 10

// agentLogs are the agents whose logs the readers consult: where a
// session's log is, and what its tail says.
var agentLogs = map[string]struct {
	path func(l Layout, rec *Record) string
	last func(tail []byte) (AgentTurnEnd, bool)
}{
	AgentCopilot: {copilotLogPath, copilotTurnEnd},
	AgentGemini:  {geminiLogPath, geminiTurnEnd},
}

// loadAgentTurnEnds reads the logs of the store's working and waiting
// sessions of agents that have one, and returns the turn ends found, by
// session id, and the directories the logs are in (for a watcher).
func loadAgentTurnEnds(l Layout, st *Store) (map[string]AgentTurnEnd, []string) {
	ends := map[string]AgentTurnEnd{}
	var dirs []string
	for id, rec := range st.Sessions {
		if rec == nil || (rec.State != StateWorking && rec.State != StateWaiting) {
			continue
		}
		reader, ok := agentLogs[rec.Agent]
		if !ok {
			continue
		}
		path := reader.path(l, rec)
		if path == "" {
			continue
		}
		dirs = append(dirs, filepath.Dir(path))
		tail, _, err := safefile.ReadTail(path, agentLogTail)
		if err != nil {
			continue // no log yet, or not one hud reads: the hooks decide
		}
		if end, ok := reader.last(tail); ok {
			end.Path = path
			ends[id] = end
		}
	}
	return ends, dirs
}

// AgentOpinion decides whether an agent's log end overrides rec: the
// state to show and since when.
func AgentOpinion(rec *Record, end *AgentTurnEnd) (State, time.Time, bool) {
	if rec == nil || end == nil || end.At.IsZero() {
		return "", time.Time{}, false
	}
	if rec.State != StateWorking && rec.State != StateWaiting {
		return "", time.Time{}, false
	}
	if !end.At.After(rec.UpdatedAt.Time) {
		return "", time.Time{}, false
	}
	return StateReady, end.At, true
}

// copilotLogPath is Copilot's events.jsonl of the session: Copilot names
// the directory after the session id (which the store has checked), so
// the path is built, not taken from a payload.
func copilotLogPath(l Layout, rec *Record) string {
	if CheckSessionID(rec.SessionID) != nil {
		return ""
	}
	return filepath.Join(l.Home, ".copilot", "session-state", rec.SessionID, "events.jsonl")
}

// geminiLogPath is the chat file Gemini's hooks name (transcript_path),
// taken only inside Gemini's own directory and only by the name Gemini
// gives it: a payload cannot make hud read anything else.
func geminiLogPath(l Layout, rec *Record) string {
	p := rec.TranscriptPath
	root := filepath.Join(l.Home, ".gemini", "tmp") + string(filepath.Separator)
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || !strings.HasPrefix(p, root) {
		return ""
	}
	base := filepath.Base(p)
	if filepath.Base(filepath.Dir(p)) != "chats" || !strings.HasPrefix(base, "session-") || filepath.Ext(base) != ".jsonl" {
		return ""
	}
	return p
}

// logLines calls fn with each complete JSON line of a log's tail, oldest
// first; the first is skipped when the tail starts mid-line.
func logLines(tail []byte, fn func(line []byte)) {
	if len(tail) >= agentLogTail {
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	for _, line := range bytes.Split(tail, []byte{'\n'}) {
		if len(line) > 0 && line[0] == '{' {
			fn(line)
		}
	}
}

// copilotTurnEnd finds the newest turn end in Copilot's events.jsonl that
// no hook reports: an abort (a denial: "user_initiated"; Esc Esc:
// "user_abort") or a session.error (a model error, after its retries).
func copilotTurnEnd(tail []byte) (AgentTurnEnd, bool) {
	var end AgentTurnEnd
	found := false
	logLines(tail, func(line []byte) {
		var e struct {
			Type      string    `json:"type"`
			Timestamp time.Time `json:"timestamp"`
			Data      struct {
				Message string `json:"message"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &e) != nil {
			return
		}
		switch e.Type {
		case "abort":
			end, found = AgentTurnEnd{At: e.Timestamp}, true
		case "session.error":
			end, found = AgentTurnEnd{At: e.Timestamp, Error: e.Data.Message}, true
		}
	})
	return end, found
}

// geminiCancelled is the info Gemini writes to its chat file when a
// request ends at the person's word: a denial at the dialog, or Esc.
const geminiCancelled = "Request cancelled."

// geminiTurnEnd finds the newest "Request cancelled." in Gemini's chat
// file. Gemini rewrites the conversation after it, every message stamped
// anew, so only the cancel's own time is compared with the hooks'.
func geminiTurnEnd(tail []byte) (AgentTurnEnd, bool) {
	var end AgentTurnEnd
	found := false
	logLines(tail, func(line []byte) {
		var e struct {
			Type      string          `json:"type"`
			Timestamp time.Time       `json:"timestamp"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(line, &e) != nil || e.Type != "info" {
			return
		}
		var text string
		if json.Unmarshal(e.Content, &text) == nil && text == geminiCancelled {
			end, found = AgentTurnEnd{At: e.Timestamp}, true
		}
	})
	return end, found
}
