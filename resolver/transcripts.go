package resolver

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/safefile"
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
	// path is the session's transcript, "" when there is none to read,
	// and the agent's home it lies in: no directory on the way from there
	// to the transcript may be a link.
	path func(l Layout, rec *Record) (path, home string)
	// last finds the newest turn end in a tail of it, written last at
	// modified.
	last func(tail []byte, modified time.Time) (TurnEnd, bool)
	// links: whether the file may be a symbolic link (none may: each is a
	// file the agent writes itself).
	links safefile.Links
}

// transcriptOf is agent's transcript, the second opinion for what its
// hooks miss; false for an agent whose hooks tell it all. (A switch, not
// a map: the hook links this package, and a map literal is built at every
// start.)
func transcriptOf(agent string) (transcript, bool) {
	switch agent {
	case AgentCodex:
		return transcript{codexRollout, func(tail []byte, _ time.Time) (TurnEnd, bool) { return lastTurnEnd(tail) }, safefile.NoFollow}, true
	case AgentCopilot:
		return transcript{copilotLogPath, copilotTurnEnd, safefile.NoFollow}, true
	case AgentGemini:
		return transcript{geminiLogPath, geminiTurnEnd, safefile.NoFollow}, true
	}
	return transcript{}, false
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
		t, ok := transcriptOf(rec.Agent)
		if !ok {
			continue
		}
		path, home := t.path(l, rec)
		if path == "" || !realDirsBelow(home, filepath.Dir(path)) {
			continue
		}
		dirs = append(dirs, filepath.Dir(path))
		tail, err := safefile.ReadTail(path, maxTranscriptTail, t.links)
		if err != nil {
			continue
		}
		// Stat after the read: the time is never older than what was read.
		fi, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if end, ok := t.last(tail, fi.ModTime()); ok {
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
func copilotLogPath(l Layout, rec *Record) (path, home string) {
	if CheckSessionID(rec.SessionID) != nil {
		return "", ""
	}
	if p := rec.TranscriptPath; filepath.IsAbs(p) && filepath.Clean(p) == p &&
		filepath.Base(p) == "events.jsonl" && filepath.Base(filepath.Dir(p)) == rec.SessionID &&
		filepath.Base(filepath.Dir(filepath.Dir(p))) == "session-state" {
		return p, filepath.Dir(filepath.Dir(filepath.Dir(p)))
	}
	home = filepath.Join(l.Home, ".copilot")
	return filepath.Join(home, "session-state", rec.SessionID, "events.jsonl"), home
}

// geminiLogPath is the chat file Gemini's hooks name (transcript_path),
// taken only inside Gemini's own directory and only by the name Gemini
// gives it: a payload cannot make hud read anything else.
func geminiLogPath(l Layout, rec *Record) (path, home string) {
	p := rec.TranscriptPath
	home = filepath.Join(l.Home, ".gemini")
	root := filepath.Join(home, "tmp") + string(filepath.Separator)
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || !strings.HasPrefix(p, root) {
		return "", ""
	}
	base := filepath.Base(p)
	if filepath.Base(filepath.Dir(p)) != "chats" || !strings.HasPrefix(base, "session-") || filepath.Ext(base) != ".jsonl" {
		return "", ""
	}
	return p, home
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
// without a hook saying so. A turn ends at an abort (a denial:
// "user_initiated"; Esc Esc: "user_abort"), a session.error (a model
// error, after its retries) or its agentStop; the next begins with its
// userPromptSubmitted hook, which Copilot logs (hook.start) before it runs
// the hook. An end with no prompt after it is the state of the session as
// of the log's last write (modified): a denial, an Esc Esc, an error.
//
// That covers Esc Esc before the answer's first words too ("esc esc edit
// prompt"): Copilot puts the prompt back to be edited and rewinds the log
// past it, its hook's records included, so the turn before's end is the
// newest again, and the rewind is the log's last write, after the hook.
// A model call's assistant.turn_end is no end: a tool's result starts the
// next call at once.
func copilotTurnEnd(tail []byte, modified time.Time) (TurnEnd, bool) {
	var end TurnEnd
	ended := false
	logLines(tail, func(line []byte) {
		var e struct {
			Type string `json:"type"`
			Data struct {
				Message  string `json:"message"`
				HookType string `json:"hookType"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &e) != nil {
			return
		}
		switch {
		case e.Type == "abort":
			end, ended = TurnEnd{}, true
		case e.Type == "session.error":
			end, ended = TurnEnd{Error: e.Data.Message}, true
		case e.Type == "hook.start" && e.Data.HookType == "agentStop":
			end, ended = TurnEnd{}, true
		case e.Type == "hook.start" && e.Data.HookType == "userPromptSubmitted",
			e.Type == "user.message", e.Type == "assistant.turn_start", e.Type == "tool.execution_start":
			ended = false
		}
	})
	if !ended || modified.IsZero() {
		return TurnEnd{}, false
	}
	end.At = modified
	return end, true
}

// geminiCancelled is the info Gemini writes to its chat file when a
// request ends at the person's word: a denial at the dialog, or Esc.
const geminiCancelled = "Request cancelled."

// geminiTurnEnd finds the newest "Request cancelled." in Gemini's chat
// file. Gemini rewrites the conversation after it, every message stamped
// anew, so only the cancel's own time is compared with the hooks'.
func geminiTurnEnd(tail []byte, _ time.Time) (TurnEnd, bool) {
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
