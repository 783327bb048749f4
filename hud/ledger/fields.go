package ledger

import (
	"time"

	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// An entry is read and written through this list rather than
// encoding/json's reflection: `hud history` reads a month of lines, and
// reflection was most of its time (docs/performance.md).
func (e *Entry) fields() []jsonfields.Field {
	return []jsonfields.Field{
		jsonfields.Value("t", stamp{&e.T}),
		jsonfields.String("key", &e.Key).OmitEmpty(),
		jsonfields.String("host", &e.Host).OmitEmpty(),
		jsonfields.String("agent", &e.Agent).OmitEmpty(),
		jsonfields.String("project", &e.Project).OmitEmpty(),
		jsonfields.String("name", &e.Name).OmitEmpty(),
		jsonfields.String("state", &e.State).OmitEmpty(),
		jsonfields.String("for", &e.For).OmitEmpty(),
		jsonfields.Bool("by_claude", &e.ByClaude).OmitEmpty(),
		jsonfields.Int("commits", &e.Commits).OmitEmpty(),
		jsonfields.Int("files", &e.Files).OmitEmpty(),
		jsonfields.Int("todos_done", &e.Todos).OmitEmpty(),
		jsonfields.Int("ctx", &e.Context).OmitEmpty(),
		jsonfields.String("answer", &e.Answer).OmitEmpty(),
		jsonfields.String("choice", &e.Choice).OmitEmpty(),
		jsonfields.Bool("refused", &e.Refused).OmitEmpty(),
		jsonfields.Value("away", stamp{&e.Away}).OmitEmpty(),
	}
}

// MarshalJSON writes e as one ledger line's object.
func (e Entry) MarshalJSON() ([]byte, error) { return jsonfields.Append(nil, "", "", e.fields()...) }

// UnmarshalJSON reads one ledger line's object.
func (e *Entry) UnmarshalJSON(b []byte) error {
	*e = Entry{}
	return jsonfields.Decode(b, e.fields()...)
}

// stamp is a time in RFC 3339 with nanoseconds, null when zero.
type stamp struct{ t *time.Time }

func (s stamp) MarshalJSON() ([]byte, error) {
	if s.t.IsZero() {
		return []byte("null"), nil
	}
	b := append([]byte{'"'}, s.t.UTC().AppendFormat(nil, time.RFC3339Nano)...)
	return append(b, '"'), nil
}

func (s stamp) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*s.t = time.Time{}
		return nil
	}
	return s.t.UnmarshalJSON(b)
}
