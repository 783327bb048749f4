package resolver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrForeignStore is returned for a store that parses but is not version 3:
// the writer moves it aside rather than guess at its meaning.
var ErrForeignStore = errors.New("not a version 3 store")

// NewStore returns an empty v3 store.
func NewStore() *Store {
	return &Store{Version: StoreVersion, Sessions: map[string]*Record{}}
}

// StoreProblem is one entry DecodeStore left out of a store, or repaired.
type StoreProblem struct {
	ID  string // the key in the file
	Err error  // what was wrong, and what was done
}

func (p StoreProblem) Error() string { return fmt.Sprintf("record %q: %v", p.ID, p.Err) }

// DecodeStore parses sessions.json, forgiving what it can: one bad
// record must not cost every live session its place in the HUD.
//
// The file as a whole must be a JSON object with "version": 3 and a
// "sessions" object; anything else is an error (wrapping ErrForeignStore
// for another version), and the writer moves the file aside. Within it, a
// record that does not decode (a bad timestamp, a field of the wrong
// type), or whose key is not a valid session id (CheckSessionID), is left
// out; a record whose session_id differs from its key is repaired to the
// key, which is how every reader and the hook address it. Each such case
// is in problems, for the writer's log; readers may ignore them. Empty
// input is an empty store (a writer that crashed before its first write
// leaves nothing else).
func DecodeStore(b []byte) (s *Store, problems []StoreProblem, err error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return NewStore(), nil, nil
	}
	var raw struct {
		Version  *int                       `json:"version"`
		Sessions map[string]json.RawMessage `json:"sessions"`
		Ended    map[string]json.RawMessage `json:"ended"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, nil, fmt.Errorf("decoding store: %w", err)
	}
	switch {
	case raw.Version == nil:
		return nil, nil, fmt.Errorf("decoding store: no version: %w", ErrForeignStore)
	case *raw.Version != StoreVersion:
		return nil, nil, fmt.Errorf("decoding store: version %d: %w", *raw.Version, ErrForeignStore)
	}
	s = NewStore()
	for id, m := range raw.Sessions {
		r, problem := storedRecord(id, m)
		if problem != nil {
			problems = append(problems, StoreProblem{ID: id, Err: problem})
		}
		if r != nil {
			s.Sessions[id] = r
		}
	}
	for id, m := range raw.Ended {
		var at Timestamp
		if err := json.Unmarshal(m, &at); err != nil || !ValidSessionID(id) {
			if err == nil {
				err = CheckSessionID(id)
			}
			problems = append(problems, StoreProblem{ID: id, Err: fmt.Errorf("ended entry dropped: %w", err)})
			continue
		}
		if s.Ended == nil {
			s.Ended = map[string]Timestamp{}
		}
		s.Ended[id] = at
	}
	return s, problems, nil
}

// storedRecord decodes the record stored under id: nil and why when it is
// left out, the record and what was repaired when it was repaired.
func storedRecord(id string, m json.RawMessage) (*Record, error) {
	if err := CheckSessionID(id); err != nil {
		return nil, fmt.Errorf("dropped: %w", err)
	}
	if string(m) == "null" {
		return nil, errors.New("dropped: null")
	}
	r := &Record{}
	if err := r.UnmarshalJSON(m); err != nil {
		return nil, fmt.Errorf("dropped: %w", err)
	}
	if r.SessionID != id {
		problem := fmt.Errorf("session_id %q repaired to its key", r.SessionID)
		r.SessionID = id
		return r, problem
	}
	return r, nil
}

// EncodeStore renders the store as indented JSON with a final newline;
// keys come out sorted, so the file diffs well and a person can read it.
func EncodeStore(s *Store) ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding store: %w", err)
	}
	return append(b, '\n'), nil
}
