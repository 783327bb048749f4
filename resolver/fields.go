package resolver

import (
	"fmt"

	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// The store's and a lock's JSON is read and written through these lists,
// not encoding/json's reflection: the hook decodes and encodes a record on
// every event, in a fresh process each time (docs/performance.md).

func (m *LockMeta) fields() []jsonfields.Field {
	return []jsonfields.Field{
		jsonfields.Int("pid", &m.PID),
		jsonfields.String("path", &m.Path),
		jsonfields.Int("created", &m.Created),
		jsonfields.Int("proc_started", &m.ProcStarted),
		jsonfields.String("session_id", &m.SessionID).OmitEmpty(),
	}
}

// MarshalJSON writes meta.json's content for m. (Lock, which embeds a
// LockMeta, writes as its meta alone.)
func (m LockMeta) MarshalJSON() ([]byte, error) {
	return jsonfields.Append(nil, "", "", m.fields()...)
}

// UnmarshalJSON reads a lock's meta.json.
func (m *LockMeta) UnmarshalJSON(b []byte) error {
	*m = LockMeta{}
	if err := jsonfields.Decode(b, m.fields()...); err != nil {
		return fmt.Errorf("decoding lock meta: %w", err)
	}
	return nil
}
