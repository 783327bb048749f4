package resolver

import (
	"time"

	"github.com/capacitor-hud/hud/internal/terminal"
)

// State is what a session is doing, as the HUD shows it.
type State string

// The states of the v3 store. Idle means "no active session" and is only
// ever an aggregate; the hook never writes it.
const (
	StateWorking    State = "working"
	StateReady      State = "ready"
	StateWaiting    State = "waiting"
	StateCompacting State = "compacting"
	StateIdle       State = "idle"
)

// Valid reports whether s is one of the store's states.
func (s State) Valid() bool {
	switch s {
	case StateWorking, StateReady, StateWaiting, StateCompacting, StateIdle:
		return true
	}
	return false
}

// Attention ranks states by how much they need the person: a higher value
// wins when several sessions are summarised into one. Unknown states rank
// lowest.
func (s State) Attention() int {
	switch s {
	case StateWaiting:
		return 4
	case StateWorking:
		return 3
	case StateCompacting:
		return 2
	case StateReady:
		return 1
	}
	return 0
}

// StoreVersion is the only store format version this code reads and writes.
const StoreVersion = 3

// Store is ~/.capacitor/sessions.json.
type Store struct {
	Version  int                `json:"version"`
	Sessions map[string]*Record `json:"sessions"`
	// Ended remembers, for a minute, the ids of sessions that ended
	// (SessionEnd), so a late event of an async hook cannot bring a record
	// back. Only the hook uses it; readers ignore it.
	Ended map[string]Timestamp `json:"ended,omitempty"`
}

// LastEvent records the hook event that last touched a record.
type LastEvent struct {
	Event     string
	Timestamp Timestamp
}

// Record is one session in the store. The first block of fields is the v3
// format exactly; the rest are additions the HUD needs, all optional. Its
// JSON names are listed once, in fields (fields.go).
type Record struct {
	SessionID string
	// Agent is the coding agent whose hooks wrote the record ("codex",
	// "opencode"); "" for Claude Code (AgentOf).
	Agent          string
	State          State
	CWD            string
	UpdatedAt      Timestamp
	StateChangedAt Timestamp
	WorkingOn      string
	ProjectDir     string
	LastEvent      *LastEvent

	// PID and ProcStarted identify the Claude Code process that last fired
	// an event for this session (the hook walks up past shells to find it).
	// ProcStarted is the process start time in Unix seconds.
	PID         int
	ProcStarted int64
	// ConfigDir is the Claude config directory the session runs with
	// (CLAUDE_CONFIG_DIR, normalized), where its lock and Claude's own
	// session file are; "" for ~/.claude.
	ConfigDir string

	ToolsInFlight  int
	PermissionMode string
	LastTool       string
	WaitingFor     string
	// WaitingTool fingerprints the tool call a permission dialog is about,
	// so tool events of other calls (parallel tools, subagents) while the
	// dialog is up do not hide it.
	WaitingTool string
	// Terminal is where Claude runs (tmux pane, terminal window): its
	// fields are the record's own keys.
	terminal.Terminal
	TranscriptPath string
	// TurnStartedAt is when the current turn began (UserPromptSubmit); the
	// tray uses it to say "done" only after long turns.
	TurnStartedAt Timestamp
	// LastError keeps the error of a StopFailure.
	LastError string
	// CompactTrigger is "manual" or "auto" while compacting.
	CompactTrigger string
	// Subagents are the ids of the subagents running now. While any runs
	// after the main turn's Stop, the turn is not over: Claude waits for
	// them and continues by itself with their results.
	Subagents []string
}

// Project returns the directory that names the session's project: the
// recorded project_dir, else the cwd.
func (r *Record) Project() string {
	if r.ProjectDir != "" {
		return r.ProjectDir
	}
	return r.CWD
}

// LockMeta is meta.json inside a lock directory; its JSON names are listed
// once, in fields (fields.go). Times are Unix seconds.
type LockMeta struct {
	PID         int
	Path        string
	Created     int64
	ProcStarted int64
	SessionID   string
}

// Lock is a lock directory as found on disk.
type Lock struct {
	// Dir is the lock directory's absolute path.
	Dir string
	LockMeta
}

// ClaudeSession is Claude Code's own ~/.claude/sessions/<pid>.json, written
// by Claude Code 2.1.x while a process lives. It is a second opinion, never
// the only signal: other versions may not write it.
type ClaudeSession struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	// ProcStart is the start time in clock ticks since boot (Linux
	// /proc/<pid>/stat field 22), as a decimal string.
	ProcStart string `json:"procStart"`
	// Status is idle, busy or waiting; empty in print mode.
	Status          string `json:"status"`
	WaitingFor      string `json:"waitingFor,omitempty"`
	UpdatedAt       int64  `json:"updatedAt,omitempty"`       // Unix ms
	StatusUpdatedAt int64  `json:"statusUpdatedAt,omitempty"` // Unix ms
	Kind            string `json:"kind,omitempty"`
	Version         string `json:"version,omitempty"`
	// Name is the session's name (newer releases): set by /rename or
	// --name ("user"), by Claude itself ("auto", e.g. from an accepted
	// plan), made unique ("collision"), or made up from the directory
	// ("derived", e.g. "api-07"). Background sessions are named after
	// their prompt with no source.
	Name       string `json:"name,omitempty"`
	NameSource string `json:"nameSource,omitempty"`
}

// DisplayName is the name worth showing beside the project: Name, unless
// Claude made it up from the directory name (which says no more than the
// project does; Claude's own lists leave those out too).
func (c ClaudeSession) DisplayName() string {
	if c.NameSource == "derived" {
		return ""
	}
	return c.Name
}

// StatusSince returns when Claude last changed Status, or the zero time.
func (c ClaudeSession) StatusSince() time.Time {
	if c.StatusUpdatedAt == 0 {
		return time.Time{}
	}
	return time.UnixMilli(c.StatusUpdatedAt)
}
