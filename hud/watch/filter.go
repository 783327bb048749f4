package watch

import (
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/capacitor-hud/hud/resolver"
)

// storeName is the store's base name. Its temp files and its flock file
// (sessions.json.lock) share the prefix, so the match must be exact.
const storeName = "sessions.json"

// classifyStoreDir names what an event in ~/.capacitor means.
func classifyStoreDir(name string, op fsnotify.Op) Change {
	if name == storeName && !chmodOnly(op) {
		return Change{Store: true}
	}
	return Change{}
}

// classifyLockDir names what an event in ~/.claude/sessions means: a lock
// directory appearing or going away, or one of Claude Code's <pid>.json
// files changing. Staging names of the lock holder, temp files and
// anything else do not count.
func classifyLockDir(name string, op fsnotify.Op) Change {
	if chmodOnly(op) {
		return Change{}
	}
	if _, _, err := resolver.ParseLockName(name); err == nil {
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

// claudeFiles are the files of ~/.claude whose changes the tray shows:
// Claude Code's settings (are the hooks installed?) and the break
// reminders' state (snoozed, paused, taken). Everything else there —
// history, transcripts, our own debug log on every hook run — is noise.
var claudeFiles = map[string]bool{
	"settings.json":         true,
	"vibe-check-state.json": true,
	"hud-breaks.json":       true,
}

// classifyClaudeDir names what an event in ~/.claude means.
func classifyClaudeDir(name string, op fsnotify.Op) Change {
	if claudeFiles[name] && !chmodOnly(op) {
		return Change{ClaudeFiles: true}
	}
	return Change{}
}

// classifyConfigDir names what an event in the settings file's directory
// means.
func classifyConfigDir(base, name string, op fsnotify.Op) Change {
	if name == base && !chmodOnly(op) {
		return Change{Config: true}
	}
	return Change{}
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
