package store

import (
	"fmt"
	"time"
)

// TimestampLayout is RFC 3339 in UTC with exactly three fractional digits,
// the store's timestamp format ("2026-01-21T10:30:00.123Z").
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// Timestamp is a time that marshals in the store's format. It accepts any
// RFC 3339 time when reading, so a hand-edited store still loads.
type Timestamp struct{ time.Time }

// At wraps t, truncated to milliseconds and in UTC.
func At(t time.Time) Timestamp { return Timestamp{t.UTC().Truncate(time.Millisecond)} }

// MarshalJSON implements json.Marshaler.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte(`null`), nil
	}
	b := make([]byte, 0, len(TimestampLayout)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, TimestampLayout)
	return append(b, '"'), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		t.Time = time.Time{}
		return nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return fmt.Errorf("timestamp %s: not a string", s)
	}
	v, err := time.Parse(time.RFC3339Nano, s[1:len(s)-1])
	if err != nil {
		return fmt.Errorf("timestamp %s: %w", s, err)
	}
	t.Time = v.UTC()
	return nil
}
