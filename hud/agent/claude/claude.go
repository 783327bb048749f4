// Package claude is Claude Code as one of hud's agents. Claude is the
// agent hud was built around: the hook's payloads are Claude's own
// (hud/hook), its transcripts, session files and status line are the
// resolver's shared formats, and `hud install` with no agent wires it.
// What is left here is its name and label.
package claude

import (
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/resolver"
)

// ClaudeCode is Claude Code.
type ClaudeCode struct{}

// Name is resolver.AgentClaude: Claude's records carry no agent field.
func (ClaudeCode) Name() string { return resolver.AgentClaude }

// Label is "Claude".
func (ClaudeCode) Label() string { return "Claude" }

// Log is nil: Claude's own session files are read beside its locks
// (resolver.LoadClaudeSessions), and its transcript for its context.
func (ClaudeCode) Log() resolver.AgentLog { return nil }

// Hook is the hook's own reading of Claude's payloads: hud-hook with no
// argument.
func (ClaudeCode) Hook() *hook.Source { return &hook.ClaudeCode }

// Setup is nil: `hud install` with no agent wires Claude Code, into its
// settings.json (install.Install).
func (ClaudeCode) Setup() *install.Setup { return nil }
