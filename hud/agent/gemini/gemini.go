// Package gemini is Google's Gemini CLI as one of hud's agents: its name
// and label, and its chat file, the second opinion for the turns whose
// end fires no hook (a denial at the dialog).
package gemini

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/agent"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// Name is Gemini's name in the store, `hud-hook gemini` and `hud install
// gemini`.
const Name = "gemini"

// Gemini is Gemini CLI.
type Gemini struct{}

// Name is Name.
func (Gemini) Name() string { return Name }

// Label is "Gemini".
func (Gemini) Label() string { return "Gemini" }

// Log is Gemini's chat file (~/.gemini/tmp/<project>/chats/session-*.jsonl),
// which records "Request cancelled." where no hook fires.
func (Gemini) Log() resolver.AgentLog { return chat{} }

// chat reads Gemini's chat files.
type chat struct{}

// Path is the chat file Gemini's hooks name (transcript_path), taken only
// inside Gemini's own directory and only by the name Gemini gives it: a
// payload cannot make hud read anything else.
func (chat) Path(l paths.Layout, rec *store.Record) (path, home string) {
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

// cancelled is the info Gemini writes to its chat file when a request
// ends at the person's word: a denial at the dialog, or Esc.
const cancelled = "Request cancelled."

// TurnEnd finds the newest "Request cancelled." in Gemini's chat file.
// Gemini rewrites the conversation after it, every message stamped anew,
// so only the cancel's own time is compared with the hooks'.
func (chat) TurnEnd(tail []byte, _ time.Time) (resolver.TurnEnd, bool) {
	var end resolver.TurnEnd
	found := false
	agent.JSONLines(tail, func(line []byte) {
		var e struct {
			Type      string          `json:"type"`
			Timestamp time.Time       `json:"timestamp"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(line, &e) != nil || e.Type != "info" {
			return
		}
		var text string
		if json.Unmarshal(e.Content, &text) == nil && text == cancelled {
			end, found = resolver.TurnEnd{At: e.Timestamp}, true
		}
	})
	return end, found
}

// Hook is how hud-hook reads the agent's payloads and finds its process.
func (Gemini) Hook() *hook.Source { return &hookSource }
