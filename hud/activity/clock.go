package activity

import (
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// CheckpointDue reports whether the session's periodic checkpoint is due
// at now; a session with no activity file has none due. The hook asks on
// every prompt and after most tool calls, so it decodes only the clock:
// encoding/json builds a decoder for the type it meets, and a fresh
// process would otherwise build the whole Session's (files, todos, git)
// for three fields.
func CheckpointDue(l paths.Layout, sessionID string, now time.Time) (bool, error) {
	path, err := Path(l, sessionID)
	if err != nil {
		return false, err
	}
	c, err := readJSONFile[checkpointClock]("activity", path)
	if c == nil {
		return false, err
	}
	s := Session{StartedAt: c.StartedAt, LastCheckpoint: c.LastCheckpoint, CheckpointEvery: c.CheckpointEvery}
	return s.CheckpointDue(now), err
}

// checkpointClock is the part of an activity file (Session) that says
// when its next checkpoint is due, under the same keys.
type checkpointClock struct {
	StartedAt       time.Time     `json:"started_at"`
	LastCheckpoint  time.Time     `json:"last_checkpoint"`
	CheckpointEvery time.Duration `json:"checkpoint_every"`
}
