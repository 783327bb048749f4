package paths

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Layout names every file the HUD shares, relative to one home directory.
// Code takes a Layout instead of reading $HOME, so tests run in a temp dir.
type Layout struct {
	Home string
	// Config is the Claude Code config directory (CLAUDE_CONFIG_DIR) whose
	// sessions/ holds the locks and Claude's own session files; "" is the
	// default, ~/.claude. The HUD's own files in ~/.claude (the hook's log,
	// the break and work-session state) stay there whatever it is: they
	// belong to the person, not to one of their Claude accounts.
	Config string
}

// WithConfig returns l for the Claude config directory dir ("" or the
// default directory itself: ~/.claude). dir must be normalized.
func (l Layout) WithConfig(dir string) Layout {
	if dir == l.DefaultConfigDir() {
		dir = ""
	}
	l.Config = dir
	return l
}

// DefaultConfigDir is ~/.claude, where Claude Code keeps its settings and
// sessions unless CLAUDE_CONFIG_DIR says otherwise.
func (l Layout) DefaultConfigDir() string { return filepath.Join(l.Home, ".claude") }

// ConfigDir is the Claude config directory of l: Config, else ~/.claude.
func (l Layout) ConfigDir() string {
	if l.Config != "" {
		return l.Config
	}
	return l.DefaultConfigDir()
}

// UserSettingsPath is the user settings file of l's config directory,
// where `hud install` wires the hook.
func (l Layout) UserSettingsPath() string { return filepath.Join(l.ConfigDir(), "settings.json") }

// ConfigDirsPath is ~/.capacitor/config-dirs.json: the Claude config
// directories `hud install` wired besides ~/.claude (configdirs.go).
func (l Layout) ConfigDirsPath() string { return filepath.Join(l.StoreDir(), "config-dirs.json") }

// StoreDir is ~/.capacitor.
func (l Layout) StoreDir() string { return filepath.Join(l.Home, ".capacitor") }

// StorePath is ~/.capacitor/sessions.json.
func (l Layout) StorePath() string { return filepath.Join(l.StoreDir(), "sessions.json") }

// LedgerDir is ~/.capacitor/ledger: the wait ledger's day files
// (hud/ledger).
func (l Layout) LedgerDir() string { return filepath.Join(l.StoreDir(), "ledger") }

// WebDir is ~/.capacitor/web: the page's paired devices and where it is
// served (hud/web).
func (l Layout) WebDir() string { return filepath.Join(l.StoreDir(), "web") }

// StoreLockPath is the flock file that serialises writers of the store.
func (l Layout) StoreLockPath() string { return l.StorePath() + ".lock" }

// TrayLockPath is the file whose flock the running tray holds: one tray
// per user, and how the hook and doctor tell whether a tray runs.
func (l Layout) TrayLockPath() string { return filepath.Join(l.StoreDir(), "hud-tray.lock") }

// ClaudeDir is ~/.claude, home of the HUD's own files beside Claude's
// (whatever l.Config is).
func (l Layout) ClaudeDir() string { return filepath.Join(l.Home, ".claude") }

// LockDir is the sessions/ directory of l's config directory
// (~/.claude/sessions by default), shared with Claude Code's own
// <pid>.json files (which the HUD reads and never touches).
func (l Layout) LockDir() string { return filepath.Join(l.ConfigDir(), "sessions") }

// DebugLogPath is the hook's debug log.
func (l Layout) DebugLogPath() string { return filepath.Join(l.ClaudeDir(), "hud-hook-debug.log") }

// LockName is the base name of the lock directory for a Claude process with
// the given pid whose session runs in the (normalized) path:
// <first 12 hex digits of SHA-256 of path>-<pid>.lock
func LockName(path string, pid int) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:])[:12] + "-" + strconv.Itoa(pid) + ".lock"
}

// ParseLockName splits a lock directory's base name into its path hash and
// pid. It rejects anything else in the directory, Claude Code's own
// <pid>.json files among them.
func ParseLockName(name string) (hash string, pid int, err error) {
	base, ok := strings.CutSuffix(name, ".lock")
	if !ok {
		return "", 0, fmt.Errorf("lock name %q: no .lock suffix", name)
	}
	hash, pidText, ok := strings.Cut(base, "-")
	if !ok || len(hash) != 12 {
		return "", 0, fmt.Errorf("lock name %q: want <12 hex>-<pid>.lock", name)
	}
	if _, err := hex.DecodeString(hash); err != nil {
		return "", 0, fmt.Errorf("lock name %q: hash is not hex", name)
	}
	pid, err = strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return "", 0, fmt.Errorf("lock name %q: bad pid", name)
	}
	return hash, pid, nil
}

// StatusLineDir is ~/.capacitor/statusline/.
func (l Layout) StatusLineDir() string { return filepath.Join(l.StoreDir(), "statusline") }

// StatusLinePath is the recorded status line of session id.
func (l Layout) StatusLinePath(id string) string {
	return filepath.Join(l.StatusLineDir(), id+".json")
}
