package resolver

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/safefile"
)

// An agent's own transcript is the second opinion for the turn ends its
// hooks miss, as Claude's session file is for Claude's: Codex fires no
// hook when a turn ends in an API error; Gemini CLI and Copilot CLI none
// when the person denies a permission, and Copilot none when Esc stops a
// turn or a model error ends one. Each writes the moment to its own log:
// Codex's rollout a task_complete, Gemini's chat file
// (~/.gemini/tmp/<project>/chats/session-*.jsonl) an info record "Request
// cancelled.", Copilot's ~/.copilot/session-state/<id>/events.jsonl an
// abort or a session.error. TurnEndOpinion says what counts.

// maxTranscriptTail bounds what is read of a transcript: its newest
// lines, where a turn's end is. Transcripts grow for as long as a session
// lives.
const maxTranscriptTail = 64 << 10

// transcript is how to read one agent's transcript.
type transcript struct {
	// path is the session's transcript, "" when there is none to read.
	path func(l Layout, rec *Record) string
	// last finds the newest turn end in a tail of it.
	last func(tail []byte) (TurnEnd, bool)
	// links: a path hud builds or checks itself is never read through a
	// link; Codex's is the one its hooks name.
	links safefile.Links
}

var transcripts = map[string]transcript{
	AgentCodex:   {codexRollout, lastTurnEnd, safefile.Follow},
	AgentCopilot: {copilotLogPath, copilotTurnEnd, safefile.NoFollow},
	AgentGemini:  {geminiLogPath, geminiTurnEnd, safefile.NoFollow},
}

// LoadTurnEnds reads the transcripts of the store's sessions that show a
// turn running (working, waiting) and returns their newest turn ends, by
// session id, and the directories the transcripts are in, for a watcher.
// Files it cannot read, and transcripts that record no end, are left out:
// the hooks decide.
func LoadTurnEnds(l Layout, store *Store) (map[string]TurnEnd, []string) {
	if store == nil {
		return nil, nil
	}
	var ends map[string]TurnEnd
	var dirs []string
	for id, rec := range store.Sessions {
		if rec == nil || (rec.State != StateWorking && rec.State != StateWaiting) {
			continue
		}
		t, ok := transcripts[rec.Agent]
		if !ok {
			continue
		}
		path := t.path(l, rec)
		if path == "" {
			continue
		}
		dirs = append(dirs, filepath.Dir(path))
		tail, err := safefile.ReadTail(path, maxTranscriptTail, t.links)
		if err != nil {
			continue
		}
		if end, ok := t.last(tail); ok {
			if ends == nil {
				ends = map[string]TurnEnd{}
			}
			ends[id] = end
		}
	}
	return ends, dirs
}

// copilotLogPath is Copilot's events.jsonl of the session. Copilot names
// its directory after the session id (which the store has checked):
// <home>/session-state/<id>/events.jsonl, its home ~/.copilot unless
// COPILOT_HOME moves it. The path its agentStop hook gave (the record's
// transcript_path) is taken when it has exactly that shape, so a moved
// home counts from the first turn's end; else the default is built.
func copilotLogPath(l Layout, rec *Record) string {
	if CheckSessionID(rec.SessionID) != nil {
		return ""
	}
	if p := rec.TranscriptPath; filepath.IsAbs(p) && filepath.Clean(p) == p &&
		filepath.Base(p) == "events.jsonl" && filepath.Base(filepath.Dir(p)) == rec.SessionID &&
		filepath.Base(filepath.Dir(filepath.Dir(p))) == "session-state" {
		return p
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
	if len(tail) >= maxTranscriptTail {
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

// copilotTurnEnd reads Copilot's events.jsonl for a turn that ended
// without a hook: the newest record of a turn is an abort (a denial:
// "user_initiated"; Esc Esc: "user_abort") or a session.error (a model
// error, after its retries). Its time is that of the newest record after
// it that is not a hook's own: Esc Esc before the answer's first words
// ("esc esc edit prompt") puts the prompt back to be edited and rewinds
// the log past it, userPromptSubmitted hook and all, leaving the turn
// before's abort as the newest end, with only a usage record after it
// newer than the hook. A hook's records never count: Copilot logs them
// before the user.message that starts the turn.
func copilotTurnEnd(tail []byte) (TurnEnd, bool) {
	var end TurnEnd
	ended := false
	logLines(tail, func(line []byte) {
		var e struct {
			Type      string    `json:"type"`
			Timestamp time.Time `json:"timestamp"`
			Data      struct {
				Message string `json:"message"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &e) != nil || e.Timestamp.IsZero() {
			return
		}
		switch e.Type {
		case "abort":
			end, ended = TurnEnd{At: e.Timestamp}, true
		case "session.error":
			end, ended = TurnEnd{At: e.Timestamp, Error: e.Data.Message}, true
		case "user.message", "assistant.turn_start", "assistant.message", "tool.execution_start":
			ended = false
		case "hook.start", "hook.end":
		default:
			if ended && e.Timestamp.After(end.At) {
				end.At = e.Timestamp
			}
		}
	})
	return end, ended
}

// geminiCancelled is the info Gemini writes to its chat file when a
// request ends at the person's word: a denial at the dialog, or Esc.
const geminiCancelled = "Request cancelled."

// geminiTurnEnd finds the newest "Request cancelled." in Gemini's chat
// file. Gemini rewrites the conversation after it, every message stamped
// anew, so only the cancel's own time is compared with the hooks'.
func geminiTurnEnd(tail []byte) (TurnEnd, bool) {
	var end TurnEnd
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
			end, found = TurnEnd{At: e.Timestamp}, true
		}
	})
	return end, found
}
