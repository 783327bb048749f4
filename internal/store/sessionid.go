package store

import (
	"errors"
	"fmt"
)

// MaxSessionID bounds a session id; Claude Code's are 36-byte UUIDs.
const MaxSessionID = 128

// CheckSessionID is the one rule for a session id, applied by the hook to
// every event and by every reader to every record: 1 to MaxSessionID
// bytes, a letter or digit first, then letters, digits, '.', '_' or '-'.
// Claude Code's ids are UUIDs. Ids name store keys and files (a session's
// activity, its handoff), so the rule keeps out what could climb out of a
// directory ("..", a '/'), hide a file (a leading dot) or confuse a
// terminal (control characters).
func CheckSessionID(id string) error {
	switch {
	case id == "":
		return errors.New("no session_id")
	case len(id) > MaxSessionID:
		return fmt.Errorf("session_id longer than %d bytes", MaxSessionID)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("session_id %q: character %q not allowed", quoteStart(id), c)
		}
	}
	if c := id[0]; c == '.' || c == '_' || c == '-' {
		return fmt.Errorf("session_id %q: must start with a letter or digit", id)
	}
	return nil
}

// ValidSessionID reports whether id passes CheckSessionID.
func ValidSessionID(id string) bool { return CheckSessionID(id) == nil }

// quoteStart cuts a rejected id for an error message.
func quoteStart(id string) string {
	const max = 40
	if len(id) <= max {
		return id
	}
	return id[:max] + "…"
}
