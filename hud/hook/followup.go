package hook

import (
	"time"

	"github.com/capacitor-hud/hud/hud/config/settings"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
)

// Context is what a follow-up sees of one hook run, after the store was
// written.
type Context struct {
	Layout paths.Layout
	Event  *Event
	// Before is the session's record before this event (nil for a new
	// session); After is the record as written (nil when SessionEnd removed
	// it).
	Before, After *store.Record
	// Process is the coding agent's process that ran the hook; PID 0 when it
	// could not be found.
	Process AgentProcess
	Now     time.Time
	Getenv  func(string) string
	// Logf writes to the debug log.
	Logf func(format string, args ...any)

	// process is that process as lockholder sees it (for Ensure); executable
	// names the running binary, which helpers are started from.
	process    proc.Process
	executable func() (string, error)
	blocked    string
	said       string
	config     *settings.Config
}

// Config returns the person's settings, read at most once per hook run and
// only when a follow-up asks: most events never read them. The hook reads
// the copy hud leaves next to config.toml, never the TOML itself (see
// settings.ForHook); when that copy is behind the file, it says so in the
// debug log and uses what hud read last.
func (c *Context) Config() settings.Config {
	if c.config == nil {
		cfg, err := settings.ForHook(settings.DefaultPath(c.Layout.Home, c.Getenv), c.Getenv)
		if err != nil && c.Logf != nil {
			c.Logf("settings: %v", err)
		}
		c.config = &cfg
	}
	return *c.config
}

// MainTurnEnded reports whether this event ended the person's turn: a
// Stop that left the record ready. A subagent's Stop, a stop hook's, one
// during compaction, and one that leaves background agents running (Claude
// continues by itself when they return) end nothing.
func (c *Context) MainTurnEnded() bool {
	return c.Event.HookEventName == EventStop && c.After != nil && c.After.State == store.StateReady
}

// AgentProcess identifies the coding agent's process above the hook.
type AgentProcess struct {
	PID     int
	Started int64 // Unix seconds
}

// Block makes the hook exit with status 2 and reason on stderr, which
// blocks the action for events that support it (UserPromptSubmit). Only
// opt-in features may block (the strict work-session timeout).
func (c *Context) Block(reason string) { c.blocked = reason }

// Say adds text to what the hook prints on stdout, which Claude Code adds
// to the session's context on SessionStart and UserPromptSubmit. Only
// features the person switched on may say anything (the restore note after
// a compaction); every other run prints nothing.
func (c *Context) Say(text string) { c.said += text }

// followUp is one piece of work done after the store is written. An error
// is logged and never reaches Claude.
type followUp struct {
	name string
	run  func(*Context) error
}
