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

// DecodeStore parses sessions.json. Empty input is an empty store (a
// writer that crashed before its first write leaves nothing else). Records
// whose key and session_id disagree, or with an empty id, are dropped: they
// cannot be addressed.
func DecodeStore(b []byte) (*Store, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return NewStore(), nil
	}
	var s Store
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("decoding store: %w", err)
	}
	if s.Version != StoreVersion {
		return nil, fmt.Errorf("decoding store: version %d: %w", s.Version, ErrForeignStore)
	}
	if s.Sessions == nil {
		s.Sessions = map[string]*Record{}
	}
	for id, r := range s.Sessions {
		if r == nil || id == "" || r.SessionID != id {
			delete(s.Sessions, id)
		}
	}
	return &s, nil
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
