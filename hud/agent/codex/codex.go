// Package codex is OpenAI's Codex CLI as one of hud's agents: its name
// and label, and its rollout file, the second opinion for the turns whose
// end fires no hook and the source of its context in use and its
// account's limits.
package codex

import (
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// Name is Codex's name in the store, `hud-hook codex` and `hud install
// codex`.
const Name = "codex"

// Codex is Codex.
type Codex struct{}

// Name is Name.
func (Codex) Name() string { return Name }

// Label is "Codex".
func (Codex) Label() string { return "Codex" }

// Log is Codex's rollout file. Codex fires neither Stop nor Interrupt
// when a turn ends in an API error (a refused request, a dropped stream
// after its retries); its rollout still ends the turn with a
// task_complete event, its error attached. Each answer is followed there
// by a token_count event: the runway.
func (Codex) Log() resolver.AgentLog { return rollout{} }

// rollout reads Codex's rollout files.
type rollout struct{}

// Path is the rollout file a Codex session's hooks name (transcript_path),
// taken only where and as Codex keeps its rollouts:
// ~/.codex/sessions/<yyyy>/<mm>/<dd>/rollout-<time>-<id>.jsonl. The tray
// reads that file and watches its directory, so a payload naming any
// other path gets neither. A Codex home moved by CODEX_HOME is not
// followed: the hook's environment says where it is, the tray's need not.
func (rollout) Path(l paths.Layout, rec *store.Record) (path, home string) {
	p := rec.TranscriptPath
	home = filepath.Join(l.Home, ".codex")
	root := filepath.Join(home, "sessions") + string(filepath.Separator)
	rest, ok := strings.CutPrefix(p, root)
	if !ok || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return "", ""
	}
	parts := strings.Split(rest, string(filepath.Separator))
	if len(parts) != 4 || !digits(parts[0], 4) || !digits(parts[1], 2) || !digits(parts[2], 2) ||
		!strings.HasPrefix(parts[3], "rollout-") || filepath.Ext(parts[3]) != ".jsonl" {
		return "", ""
	}
	return p, home
}

// digits reports whether s is n decimal digits.
func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Hook is how hud-hook reads the agent's payloads and finds its process.
func (Codex) Hook() *hook.Source { return &hookSource }
