package activity

import (
	"encoding/json"
	"time"

	"github.com/capacitor-hud/hud/internal/jsonscan"
	"github.com/capacitor-hud/hud/resolver"
)

// CheckpointDue reports whether the session's periodic checkpoint is due
// at now; a session with no activity file has none due. The hook asks on
// every prompt and after most tool calls, so it reads only the three keys
// that decide (the file also holds the edited files, todos and git state):
// decoding the whole Session with encoding/json would first build its
// decoder for the type by reflection, which a process that lives for one
// event pays on every run. A file the scanner does not take is
// decoded in full, so the answer is always encoding/json's.
func CheckpointDue(l resolver.Layout, sessionID string, now time.Time) (bool, error) {
	path, err := Path(l, sessionID)
	if err != nil {
		return false, err
	}
	s, err := readFile("activity", path, decodeClock)
	return s != nil && s.CheckpointDue(now), err
}

// clockFields are the JSON keys of the checkpoint clock: the Session's
// StartedAt, LastCheckpoint and CheckpointEvery.
var clockFields = []string{"started_at", "last_checkpoint", "checkpoint_every"}

// decodeClock returns a Session holding only the checkpoint clock of the
// activity file b, with encoding/json's result for those fields.
func decodeClock(b []byte) (Session, error) {
	if s, ok := decodeClockFast(b); ok {
		return s, nil
	}
	var full Session
	if err := json.Unmarshal(b, &full); err != nil {
		return Session{}, err
	}
	return Session{StartedAt: full.StartedAt, LastCheckpoint: full.LastCheckpoint, CheckpointEvery: full.CheckpointEvery}, nil
}

// decodeClockFast reads the clock's keys of a plain object and skips the
// rest; anything else (a key encoding/json would match to a clock field
// by case folding, a value it would reject) is not taken (ok false).
func decodeClockFast(b []byte) (c Session, ok bool) {
	s := jsonscan.New(b)
	// time.Time decodes itself from the value's raw text, as encoding/json
	// hands it over, null included (a no-op).
	timeValue := func(t *time.Time) error {
		raw, err := s.Value()
		if err != nil {
			return err
		}
		if err := t.UnmarshalJSON(raw); err != nil {
			return jsonscan.ErrFallback
		}
		return nil
	}
	err := s.Object(func(key string) error {
		switch key {
		case "started_at":
			return timeValue(&c.StartedAt)
		case "last_checkpoint":
			return timeValue(&c.LastCheckpoint)
		case "checkpoint_every":
			if s.Null() {
				return nil
			}
			n, err := s.Int(64)
			c.CheckpointEvery = time.Duration(n)
			return err
		}
		return s.Unknown(key, clockFields)
	})
	return c, err == nil && s.End()
}
