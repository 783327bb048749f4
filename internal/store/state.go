package store

import (
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

// Version is the only store format version this code reads and writes.
const Version = 3

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
// JSON names are listed once, in fields (record.go).
//
// Two keys are easily confused: "agent" (Agent) names the coding agent
// that runs the session, Claude Code or another; "agents" (Subagents)
// lists the subagents that session's agent runs right now. The second
// name is the older: it predates the word subagent, and the file keeps it.
type Record struct {
	SessionID string
	// Agent is the coding agent whose hooks wrote the record ("codex",
	// "opencode"); "" for Claude Code (resolver.AgentOf). Key "agent".
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
	// them and continues by itself with their results. Key "agents".
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
