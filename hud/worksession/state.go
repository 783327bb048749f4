package worksession

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

// Status is the session's status.
type Status string

// The two statuses of the schema.
const (
	InProgress Status = "IN_PROGRESS"
	Paused     Status = "PAUSED"
)

// PauseType is what caused a pause.
type PauseType string

// The pause types of the schema.
const (
	AutoTask PauseType = "AUTO_TASK" // a subagent ran long, or the timeout
	AutoIdle PauseType = "AUTO_IDLE" // nothing happened for a while
	Manual   PauseType = "MANUAL"    // hud session pause
)

// TimeoutReason is the reason written for the pause the default timeout
// forces; other timeouts write their own minutes in its place.
const TimeoutReason = "Timeout enforced at 90 min working time"

// State is .claude/session-state.json, in its schema and key order.
type State struct {
	SessionID       string          `json:"sessionId"`
	Scope           string          `json:"scope"`
	Task            string          `json:"task"`
	BranchName      string          `json:"branchName"`
	Status          Status          `json:"status"`
	StartTime       store.Timestamp `json:"startTime"`
	LastMessageTime store.Timestamp `json:"lastMessageTime"`
	ActualWorkingMs int64           `json:"actualWorkingMs"`
	TotalPausedMs   int64           `json:"totalPausedMs"`
	Pauses          []Pause         `json:"pauses"`
	Reminders       Reminders       `json:"reminders"`
	Summary         string          `json:"summary"`

	// RunningTask is the HUD's one addition (the schema allows extra
	// keys): the Task tools running now, so a long run can become an
	// AUTO_TASK pause. Absent when none runs.
	RunningTask *RunningTask `json:"hudRunningTask,omitempty"`
}

// Pause is one entry of the pause history. An ongoing pause has no
// endTime (writing null, which the schema rejects for a
// date-time string; leaving the key out satisfies both readers) and a
// durationMs of 0.
type Pause struct {
	Type       PauseType        `json:"type"`
	Reason     string           `json:"reason"`
	StartTime  store.Timestamp  `json:"startTime"`
	EndTime    *store.Timestamp `json:"endTime,omitempty"`
	DurationMs int64            `json:"durationMs"`
}

// Open reports whether the pause is still going on.
func (p Pause) Open() bool { return p.EndTime == nil || p.EndTime.IsZero() }

// Reminders are the flags of the 40/60/90 minute ladder; each turns on once.
type Reminders struct {
	Break40min   bool `json:"break40min"`
	Warning60min bool `json:"warning60min"`
	Timeout90min bool `json:"timeout90min"`
}

// RunningTask tracks Task (subagent) tool calls in flight.
type RunningTask struct {
	Reason    string          `json:"reason"`
	StartTime store.Timestamp `json:"startTime"`
	// WorkingMsAtStart is actualWorkingMs when the first task started: a
	// run that becomes a pause gives back the time counted meanwhile.
	WorkingMsAtStart int64 `json:"workingMsAtStart"`
	// Running counts the Task calls in flight (they may run in parallel).
	Running int `json:"running"`
}

// openPause returns the ongoing pause, or nil.
func (s *State) openPause() *Pause {
	for i := len(s.Pauses) - 1; i >= 0; i-- {
		if s.Pauses[i].Open() {
			return &s.Pauses[i]
		}
	}
	return nil
}

// OpenPause returns a copy of the ongoing pause, if any.
func (s *State) OpenPause() (Pause, bool) {
	if p := s.openPause(); p != nil {
		return *p, true
	}
	return Pause{}, false
}

// TimedOut reports whether the session is paused by the timeout (and not
// resumed since).
func (s *State) TimedOut() bool {
	p := s.openPause()
	return s.Status == Paused && p != nil && p.Type == AutoTask && isTimeoutReason(p.Reason)
}

// isTimeoutReason recognises the reason of a timeout pause, whatever the
// configured timeout was.
func isTimeoutReason(reason string) bool { return strings.HasPrefix(reason, "Timeout enforced") }

// Decode parses a session-state file and checks what the rules rely on.
func Decode(data []byte) (*State, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var s State
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("session state: %w", err)
	}
	switch {
	case s.SessionID == "":
		return nil, errors.New("session state: no sessionId")
	case s.Status != InProgress && s.Status != Paused:
		return nil, fmt.Errorf("session state: status %q is not IN_PROGRESS or PAUSED", s.Status)
	case s.StartTime.IsZero() || s.LastMessageTime.IsZero():
		return nil, errors.New("session state: startTime or lastMessageTime missing")
	case s.ActualWorkingMs < 0 || s.TotalPausedMs < 0:
		return nil, errors.New("session state: negative time")
	}
	if s.Pauses == nil {
		s.Pauses = []Pause{}
	}
	return &s, nil
}

// Encode writes s as the file's content.
func (s *State) Encode() []byte {
	if s.Pauses == nil {
		s.Pauses = []Pause{}
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("worksession: encoding state: %v", err)) // plain values only
	}
	return append(data, '\n')
}

// Elapsed is the time since the session started.
func (s *State) Elapsed(now time.Time) time.Duration { return now.Sub(s.StartTime.Time) }
