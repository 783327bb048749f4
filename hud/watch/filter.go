package watch

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/fsnotify/fsnotify"
)

// classifyNames names what an event in a directory means when only the
// files called names matter there: c for any change to one of them but a
// chmod. Their temp files and flock files (sessions.json.lock) share the
// prefix, so the match must be exact.
func classifyNames(c Change, names ...string) func(name string, op fsnotify.Op) Change {
	return func(name string, op fsnotify.Op) Change {
		if slices.Contains(names, name) && !chmodOnly(op) {
			return c
		}
		return Change{}
	}
}

// classifyLockDir names what an event in ~/.claude/sessions means: a lock
// directory appearing or going away, or one of Claude Code's <pid>.json
// files changing. Staging names of the lock holder, temp files and
// anything else do not count.
func classifyLockDir(name string, op fsnotify.Op) Change {
	if chmodOnly(op) {
		return Change{}
	}
	if _, _, err := paths.ParseLockName(name); err == nil {
		// A directory entry: only its appearance or disappearance shows
		// in the parent (meta.json changes inside it do not).
		if op.Has(fsnotify.Create) || op.Has(fsnotify.Remove) || op.Has(fsnotify.Rename) {
			return Change{Locks: true}
		}
		return Change{}
	}
	if isClaudeSessionFile(name) {
		return Change{ClaudeSessions: true}
	}
	return Change{}
}

// classifyAgentLog reports a write to another agent's session log (a
// .jsonl: Copilot's events.jsonl, Gemini's chat files).
func classifyAgentLog(name string, op fsnotify.Op) Change {
	if chmodOnly(op) || filepath.Ext(name) != ".jsonl" {
		return Change{}
	}
	return Change{AgentLogs: true}
}

// classifyStatusLine: a recorded status line, "<session id>.json"
// replaced whole (its temp file, ".<name>.tmp-…", is not one).
func classifyStatusLine(name string, op fsnotify.Op) Change {
	base := filepath.Base(name)
	if chmodOnly(op) || filepath.Ext(base) != ".json" || strings.HasPrefix(base, ".") {
		return Change{}
	}
	return Change{StatusLines: true}
}

// isClaudeSessionFile matches Claude Code's "<pid>.json": digits only
// before the extension, so "123.json.tmp" or ".123.json" do not.
func isClaudeSessionFile(name string) bool {
	pid, ok := strings.CutSuffix(name, ".json")
	if !ok || pid == "" || len(pid) > 10 {
		return false
	}
	for _, r := range pid {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// chmodOnly reports an event that changed only metadata (touch, chmod,
// backup tools): nothing the tray shows depends on it.
func chmodOnly(op fsnotify.Op) bool {
	return op == fsnotify.Chmod
}
