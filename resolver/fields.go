package resolver

import (
	"fmt"

	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// A lock's meta.json is read and written through this list, not
// encoding/json's reflection, as a store record is (internal/store): the
// hook writes one for each new Claude process, in a fresh process each
// time (docs/performance.md).

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
