package activity

import (
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// CheckpointDue reports whether the session's periodic checkpoint is due
// at now; a session with no activity file has none due.
func CheckpointDue(l paths.Layout, sessionID string, now time.Time) (bool, error) {
	s, err := Load(l, sessionID)
	return s != nil && s.CheckpointDue(now), err
}
