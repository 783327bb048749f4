// Package copilot is GitHub's Copilot CLI as one of hud's agents: its name
// and label, and its events.jsonl, the second opinion for the turns whose
// end fires no hook (a denial, an Esc, a model error).
package copilot

import (
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/hud/agent"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// Name is Copilot's name in the store, `hud-hook copilot` and `hud
// install copilot`.
const Name = "copilot"

// Copilot is Copilot CLI.
type Copilot struct{}

// Name is Name.
func (Copilot) Name() string { return Name }

// Label is "Copilot".
func (Copilot) Label() string { return "Copilot" }

// Log is Copilot's ~/.copilot/session-state/<id>/events.jsonl, which
// records an abort or a session.error where no hook fires.
func (Copilot) Log() resolver.AgentLog { return events{} }

// events reads Copilot's events.jsonl.
type events struct{}

// Path is Copilot's events.jsonl of the session. Copilot names its
// directory after the session id (which the store has checked):
// <home>/session-state/<id>/events.jsonl, its home ~/.copilot unless
// COPILOT_HOME moves it. The path its agentStop hook gave (the record's
// transcript_path) is taken when it has exactly that shape, so a moved
// home counts from the first turn's end; else the default is built.
func (events) Path(l paths.Layout, rec *store.Record) (path, home string) {
	if store.CheckSessionID(rec.SessionID) != nil {
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

// TurnEnd reads Copilot's events.jsonl for a turn that ended without a
// hook saying so. A turn ends at an abort (a denial: "user_initiated"; Esc
// Esc: "user_abort"), a session.error (a model error, after its retries)
// or its agentStop; the next begins with its userPromptSubmitted hook,
// which Copilot logs (hook.start) before it runs the hook. An end with no
// prompt after it is the state of the session as of the log's last write
// (modified): a denial, an Esc Esc, an error.
//
// That covers Esc Esc before the answer's first words too ("esc esc edit
// prompt"): Copilot puts the prompt back to be edited and rewinds the log
// past it, its hook's records included, so the turn before's end is the
// newest again, and the rewind is the log's last write, after the hook.
// A model call's assistant.turn_end is no end: a tool's result starts the
// next call at once.
func (events) TurnEnd(tail []byte, modified time.Time) (resolver.TurnEnd, bool) {
	var end resolver.TurnEnd
	ended := false
	agent.JSONLines(tail, func(line []byte) {
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
			end, ended = resolver.TurnEnd{}, true
		case e.Type == "session.error":
			end, ended = resolver.TurnEnd{Error: e.Data.Message}, true
		case e.Type == "hook.start" && e.Data.HookType == "agentStop":
			end, ended = resolver.TurnEnd{}, true
		case e.Type == "hook.start" && e.Data.HookType == "userPromptSubmitted",
			e.Type == "user.message", e.Type == "assistant.turn_start", e.Type == "tool.execution_start":
			ended = false
		}
	})
	if !ended || modified.IsZero() {
		return resolver.TurnEnd{}, false
	}
	end.At = modified
	return end, true
}

// Hook is how hud-hook reads the agent's payloads and finds its process.
func (Copilot) Hook() *hook.Source { return &hookSource }
