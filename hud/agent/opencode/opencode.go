// Package opencode is opencode as one of hud's agents. Its events reach
// the hook through hud's plugin, which runs in the opencode process and
// sees every turn's end, so no log of its own is read.
package opencode

import (
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/resolver"
)

// Name is opencode's name in the store, `hud-hook opencode` and `hud
// install opencode`.
const Name = "opencode"

// OpenCode is opencode.
type OpenCode struct{}

// Name is Name.
func (OpenCode) Name() string { return Name }

// Label is opencode's own spelling, all lower case.
func (OpenCode) Label() string { return "opencode" }

// Log is nil: the plugin hears every turn's end.
func (OpenCode) Log() resolver.AgentLog { return nil }

// Hook is how hud-hook reads the agent's payloads and finds its process.
func (OpenCode) Hook() *hook.Source { return &hookSource }
