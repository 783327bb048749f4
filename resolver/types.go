package resolver

import (
	"time"
)

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
