package activity

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/capacitor-hud/hud/internal/jsonfields"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// CheckpointDue reports whether the session's periodic checkpoint is due
// at now; a session with no activity file has none due. The hook asks on
// every prompt and after most tool calls, so it reads only the clock's
// three keys of the file (Session's own), and without encoding/json's
// reflection over the whole Session (files, todos, git).
func CheckpointDue(l paths.Layout, sessionID string, now time.Time) (bool, error) {
	path, err := Path(l, sessionID)
	if err != nil {
		return false, err
	}
	b, _, err := safefile.Read(path, safefile.MaxRead, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading activity: %w", err)
	}
	var s Session
	if err := jsonfields.Decode(b,
		jsonfields.Value("started_at", &s.StartedAt),
		jsonfields.Value("last_checkpoint", &s.LastCheckpoint),
		jsonfields.Int("checkpoint_every", &s.CheckpointEvery),
	); err != nil {
		return false, fmt.Errorf("reading activity %s: %w", path, err)
	}
	return s.CheckpointDue(now), nil
}
