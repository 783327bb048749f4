package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// ErrCorrupt marks a store that exists but cannot be read as v3: the
// hook moves such a file aside on its next write.
var ErrCorrupt = errors.New("corrupt store")

// ErrForeign is returned for a store that parses but is not version 3:
// the writer moves it aside rather than guess at its meaning.
var ErrForeign = errors.New("not a version 3 store")

// New returns an empty v3 store.
func New() *Store {
	return &Store{Version: Version, Sessions: map[string]*Record{}}
}

// Problem is one entry Decode left out of a store, or repaired.
type Problem struct {
	ID  string // the key in the file
	Err error  // what was wrong, and what was done
}

func (p Problem) Error() string { return fmt.Sprintf("record %q: %v", p.ID, p.Err) }

// Decode parses sessions.json, forgiving what it can: one bad
// record must not cost every live session its place in the HUD.
//
// The file as a whole must be a JSON object with "version": 3 and a
// "sessions" object; anything else is an error (wrapping ErrForeign
// for another version), and the writer moves the file aside. Within it, a
// record that does not decode (a bad timestamp, a field of the wrong
// type), or whose key is not a valid session id (CheckSessionID), is left
// out; a record whose session_id differs from its key is repaired to the
// key, which is how every reader and the hook address it. Each such case
// is in problems, for the writer's log; readers may ignore them. Empty
// input is an empty store (a writer that crashed before its first write
// leaves nothing else).
func Decode(b []byte) (s *Store, problems []Problem, err error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return New(), nil, nil
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
		return nil, nil, fmt.Errorf("decoding store: no version: %w", ErrForeign)
	case *raw.Version != Version:
		return nil, nil, fmt.Errorf("decoding store: version %d: %w", *raw.Version, ErrForeign)
	}
	s = New()
	for id, m := range raw.Sessions {
		r, problem := storedRecord(id, m)
		if problem != nil {
			problems = append(problems, Problem{ID: id, Err: problem})
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
			problems = append(problems, Problem{ID: id, Err: fmt.Errorf("ended entry dropped: %w", err)})
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

// Encode renders the store as indented JSON with a final newline;
// keys come out sorted, so the file diffs well and a person can read it.
func Encode(s *Store) ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding store: %w", err)
	}
	return append(b, '\n'), nil
}

// MaxSize bounds the store a reader or the hook reads. A busy day's
// store of 200 sessions is about 175 KB; a larger file is not the hook's.
const MaxSize = 16 << 20

// Load reads the v3 store at path; a missing file is an empty store.
// Records Decode leaves out are left out silently: the hook logs them
// when it next writes the store. The store is read only as a regular file
// of at most MaxSize, never through a link: anything else at its
// name is a corrupt store, which the hook moves aside.
func Load(path string) (*Store, error) {
	b, _, notStore, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil
	}
	if notStore {
		return nil, fmt.Errorf("reading %s: %w: %w", path, ErrCorrupt, err)
	}
	if err != nil {
		return nil, fmt.Errorf("reading store: %w", err)
	}
	s, _, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w: %w", path, ErrCorrupt, err)
	}
	return s, nil
}

// ReadFile reads the store file at path for Load and the hook,
// with its info: only a regular file of at most MaxSize, never
// through a link, never blocking in open. notStore reports an error that
// says the name holds something the hook never writes there (a link, a
// FIFO, a directory, a huge file), which the hook moves aside as it does a
// corrupt store. A missing file's error wraps fs.ErrNotExist.
func ReadFile(path string) (b []byte, info fs.FileInfo, notStore bool, err error) {
	b, info, err = safefile.Read(path, MaxSize, safefile.NoFollow)
	notStore = errors.Is(err, safefile.ErrSymlink) || errors.Is(err, safefile.ErrNotRegular) || errors.Is(err, safefile.ErrTooLarge)
	return b, info, notStore, err
}
