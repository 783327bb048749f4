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
	Event     string    `json:"event"`
	Timestamp Timestamp `json:"timestamp"`
}

// Record is one session in the store. The first block of fields is the v3
// format exactly; the rest are additions the HUD needs, all optional.
type Record struct {
	SessionID string `json:"session_id"`
	// Agent is the coding agent whose hooks wrote the record ("codex",
	// "opencode"); "" for Claude Code (AgentOf).
	Agent          string     `json:"agent,omitempty"`
	State          State      `json:"state"`
	CWD            string     `json:"cwd"`
	UpdatedAt      Timestamp  `json:"updated_at"`
	StateChangedAt Timestamp  `json:"state_changed_at"`
	WorkingOn      string     `json:"working_on,omitempty"`
	ProjectDir     string     `json:"project_dir,omitempty"`
	LastEvent      *LastEvent `json:"last_event,omitempty"`

	// PID and ProcStarted identify the Claude Code process that last fired
	// an event for this session (the hook walks up past shells to find it).
	// ProcStarted is the process start time in Unix seconds.
	PID         int   `json:"pid,omitempty"`
	ProcStarted int64 `json:"proc_started,omitempty"`
	// ConfigDir is the Claude config directory the session runs with
	// (CLAUDE_CONFIG_DIR, normalized), where its lock and Claude's own
	// session file are; "" for ~/.claude.
	ConfigDir string `json:"config_dir,omitempty"`

	ToolsInFlight  int    `json:"tools_in_flight,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	LastTool       string `json:"last_tool,omitempty"`
	WaitingFor     string `json:"waiting_for,omitempty"`
	// WaitingTool fingerprints the tool call a permission dialog is about,
	// so tool events of other calls (parallel tools, subagents) while the
	// dialog is up do not hide it.
	WaitingTool string `json:"waiting_tool,omitempty"`
	// Terminal is where Claude runs (tmux pane, terminal window): its
	// fields are the record's own keys.
	terminal.Terminal
	TranscriptPath string `json:"transcript_path,omitempty"`
	// TurnStartedAt is when the current turn began (UserPromptSubmit); the
	// tray uses it to say "done" only after long turns.
	TurnStartedAt Timestamp `json:"turn_started_at,omitzero"`
	// LastError keeps the error of a StopFailure.
	LastError string `json:"last_error,omitempty"`
	// CompactTrigger is "manual" or "auto" while compacting.
	CompactTrigger string `json:"compact_trigger,omitempty"`
	// Subagents are the ids of the subagents running now. While any runs
	// after the main turn's Stop, the turn is not over: Claude waits for
	// them and continues by itself with their results.
	Subagents []string `json:"agents,omitempty"` // the key predates the word
}

// Project returns the directory that names the session's project: the
// recorded project_dir, else the cwd.
func (r *Record) Project() string {
	if r.ProjectDir != "" {
		return r.ProjectDir
	}
	return r.CWD
}

// LockMeta is meta.json inside a lock directory. Times are Unix seconds.
type LockMeta struct {
	PID         int    `json:"pid"`
	Path        string `json:"path"`
	Created     int64  `json:"created"`
	ProcStarted int64  `json:"proc_started"`
	SessionID   string `json:"session_id,omitempty"`
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
