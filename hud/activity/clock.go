package activity

import (
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// CheckpointDue reports whether the session's periodic checkpoint is due
// at now; a session with no activity file has none due. It reads the file
// without its lock (the file is replaced atomically): the hook asks on
// every prompt and after most tool calls, and takes the lock only to
// claim a checkpoint that is due.
func CheckpointDue(l paths.Layout, sessionID string, now time.Time) (bool, error) {
	s, err := Load(l, sessionID)
	if err != nil || s == nil {
		return false, err
	}
	return s.CheckpointDue(now), nil
}
