package store

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/capacitor-hud/hud/internal/jsonfields"
)

const (
	// recordTTL bounds the store: a record not updated for this long
	// belongs to a session that ended without a SessionEnd (a closed
	// terminal, kill -9) and is dropped on the next write.
	recordTTL = 24 * time.Hour
	// maxFuture is how far ahead of the writer's clock a record may be
	// dated (clocks are corrected by seconds, not hours); beyond it the
	// record was written under a wrong clock and is dropped.
	maxFuture = 10 * time.Minute
)

// A Table is the store as one Update edits it. The hook updates it on
// every tool call and the store holds every session of the last day, so
// it does not decode and re-encode them all: a record stays the bytes
// read from the file until the edit touches it, and encode writes those
// bytes back as they were. The output is byte for byte what Encode writes
// for the same store (a test holds it to that), so readers, which decode
// the whole file, cannot tell the difference.
type Table struct {
	// raw holds untouched records as read, each the indented JSON object
	// exactly as it appears in the file; recs holds decoded ones. An id is
	// in at most one of the two.
	raw  map[string][]byte
	recs map[string]*Record
	// Ended is the store's memory of ended sessions (Store.Ended).
	Ended map[string]Timestamp
}

// NewTable returns an empty table: the edit of a store that does not
// exist yet, and what tests of an edit start from.
func NewTable() *Table {
	return &Table{
		raw:   map[string][]byte{},
		recs:  map[string]*Record{},
		Ended: map[string]Timestamp{},
	}
}

// tableFromStore holds every record of s decoded.
func tableFromStore(s *Store) *Table {
	t := NewTable()
	for id, r := range s.Sessions {
		t.recs[id] = r
	}
	for id, at := range s.Ended {
		t.Ended[id] = at
	}
	return t
}

// get returns a copy of the record for id, or nil. A record that no
// longer decodes is an error; the caller may replace it.
func (t *Table) Get(id string) (*Record, error) {
	if r, ok := t.recs[id]; ok {
		c := *r
		return &c, nil
	}
	b, ok := t.raw[id]
	if !ok {
		return nil, nil
	}
	r, err := DecodeRecord(b)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", id, err)
	}
	return r, nil
}

// put stores r under its session id.
func (t *Table) Put(r *Record) {
	delete(t.raw, r.SessionID)
	t.recs[r.SessionID] = r
}

// remove deletes the record for id.
func (t *Table) Remove(id string) {
	delete(t.raw, id)
	delete(t.recs, id)
}

// ids returns every session id, sorted.
func (t *Table) IDs() []string {
	ids := make([]string, 0, len(t.raw)+len(t.recs))
	for id := range t.raw {
		ids = append(ids, id)
	}
	for id := range t.recs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// len is the number of records.
func (t *Table) Len() int { return len(t.raw) + len(t.recs) }

// dropStale removes every record that cannot be a session of now: one
// last updated before now-recordTTL, one dated more than maxFuture after
// now (written under a clock that was wrong, it would never grow old),
// and one without a readable updated_at (no age, so it would stay
// forever). The store stays bounded whatever was written into it.
func (t *Table) DropStale(now time.Time) {
	oldest, newest := now.Add(-recordTTL), now.Add(maxFuture)
	for id, r := range t.recs {
		if !current(r.UpdatedAt.Time, oldest, newest) {
			delete(t.recs, id)
		}
	}
	// Untouched records are compared as text: the store's timestamps have
	// one fixed width and are all UTC, so their order as strings is their
	// order in time, and this runs for every record on every event.
	low, _ := At(oldest).MarshalJSON()
	high, _ := At(newest).MarshalJSON()
	for id, b := range t.raw {
		v := topField(b, "updated_at")
		if len(v) == len(low) && v[len(v)-2] == 'Z' && len(high) == len(low) {
			if string(v) < string(low) || string(v) > string(high) {
				delete(t.raw, id)
			}
			continue
		}
		var ts Timestamp // another writer's format, or none
		if v == nil || ts.UnmarshalJSON(v) != nil || !current(ts.Time, oldest, newest) {
			delete(t.raw, id)
		}
	}
}

// current reports whether a record updated at at belongs in the store:
// dated, and within [oldest, newest].
func current(at, oldest, newest time.Time) bool {
	return !at.IsZero() && !at.Before(oldest) && !at.After(newest)
}

// process returns the pid and proc_started recorded for id.
func (t *Table) Process(id string) (pid int, started int64) {
	if r, found := t.recs[id]; found {
		return r.PID, r.ProcStarted
	}
	b := t.raw[id]
	pid, _ = strconv.Atoi(string(topField(b, "pid")))
	started, _ = strconv.ParseInt(string(topField(b, "proc_started")), 10, 64)
	return pid, started
}

// topField returns the raw value of a top-level field of an indented
// record: the rest of the line after `      "name": `, without the comma.
// Inside a record only its own fields sit at six spaces of indentation,
// and JSON strings cannot hold a raw newline, so the line is the field.
func topField(rec []byte, name string) []byte {
	key := make([]byte, 0, 12+len(name))
	key = append(key, "\n      \""...)
	key = append(key, name...)
	key = append(key, "\": "...)
	i := bytes.Index(rec, key)
	if i < 0 {
		return nil
	}
	v := rec[i+len(key):]
	if end := bytes.IndexByte(v, '\n'); end >= 0 {
		v = v[:end]
	}
	return bytes.TrimSuffix(v, []byte(","))
}

// encode renders the table as Encode would render the same store:
// two-space indentation, keys sorted, a final newline. Untouched records
// are copied as they were read.
func (t *Table) encode() (out []byte, err error) {
	size := 256 + 1024*len(t.recs) + 64*len(t.Ended)
	for id, b := range t.raw {
		size += len(id) + len(b) + 16
	}
	out = make([]byte, 0, size)
	out = append(out, "{\n  \"version\": 3,\n  \"sessions\": {"...)
	ids := t.IDs()
	for i, id := range ids {
		if out, err = appendKey(out, id); err != nil {
			return nil, err
		}
		if b, ok := t.raw[id]; ok {
			out = append(out, b...)
		} else {
			if out, err = AppendRecord(out, t.recs[id], "    ", "  "); err != nil {
				return nil, fmt.Errorf("encoding record %s: %w", id, err)
			}
		}
		if i < len(ids)-1 {
			out = append(out, ',')
		}
	}
	if len(ids) > 0 {
		out = append(out, "\n  "...)
	}
	out = append(out, '}')
	if len(t.Ended) > 0 {
		out = append(out, ",\n  \"ended\": {"...)
		ended := slices.Sorted(maps.Keys(t.Ended))
		for i, id := range ended {
			if out, err = appendKey(out, id); err != nil {
				return nil, err
			}
			ts, _ := t.Ended[id].MarshalJSON()
			out = append(out, ts...)
			if i < len(ended)-1 {
				out = append(out, ',')
			}
		}
		out = append(out, "\n  }"...)
	}
	return append(out, "\n}\n"...), nil
}

// appendKey appends a member's key, a session id, on a line of its own.
// A session id (CheckSessionID) holds nothing JSON escapes, so it stands
// between quotes as it is; the store has no other keys.
func appendKey(out []byte, id string) ([]byte, error) {
	if err := CheckSessionID(id); err != nil {
		return nil, fmt.Errorf("encoding store: %w", err)
	}
	out = append(append(append(out, "\n    \""...), id...), "\": "...)
	return out, nil
}

// parseCanonical splits a store file that encode (or Encode) wrote
// into its records without decoding them. It reports false for anything
// else, which the caller then decodes the slow, validating way. It relies
// on the layout alone, so the caller must know the bytes are the hook's
// own output (the checksum kept beside the lock says so).
func parseCanonical(b []byte) (*Table, bool) {
	const head = "{\n  \"version\": 3,\n  \"sessions\": {"
	rest, ok := bytes.CutPrefix(b, []byte(head))
	if !ok {
		return nil, false
	}
	t := NewTable()
	// A record takes about 800 bytes; sizing the map once spares the
	// rehashing as it grows.
	t.raw = make(map[string][]byte, len(b)/700+1)
	if r, ok := bytes.CutPrefix(rest, []byte("}")); ok {
		rest = r // no sessions
	} else {
		for {
			// `\n    "<id>": {` ... `\n    }` then `,` or `\n  }`.
			r, ok := bytes.CutPrefix(rest, []byte("\n    "))
			if !ok {
				return nil, false
			}
			keyEnd := bytes.Index(r, []byte("\": {\n"))
			if keyEnd < 0 {
				return nil, false
			}
			// A key is a session id, between quotes as it is (appendKey).
			id := string(r[1:keyEnd])
			if r[0] != '"' || !ValidSessionID(id) {
				return nil, false
			}
			body := r[keyEnd+3:]
			end := bytes.Index(body, []byte("\n    }"))
			if end < 0 {
				return nil, false
			}
			t.raw[id] = body[:end+len("\n    }")]
			rest = body[end+len("\n    }"):]
			if r, ok := bytes.CutPrefix(rest, []byte(",")); ok {
				rest = r
				continue
			}
			if rest, ok = bytes.CutPrefix(rest, []byte("\n  }")); !ok {
				return nil, false
			}
			break
		}
	}
	if r, ok := bytes.CutPrefix(rest, []byte(",\n  \"ended\": ")); ok {
		end := bytes.Index(r, []byte("\n  }"))
		if end < 0 || readEnded(r[:end+len("\n  }")], t.Ended) != nil {
			return nil, false
		}
		rest = r[end+len("\n  }"):]
	}
	if !bytes.Equal(rest, []byte("\n}\n")) {
		return nil, false
	}
	return t, true
}

// readEnded reads the store's "ended" object into ended.
func readEnded(b []byte, ended map[string]Timestamp) error {
	return jsonfields.Each(b, func(id string, v []byte) error {
		var at Timestamp
		if err := at.UnmarshalJSON(v); err != nil {
			return err
		}
		ended[id] = at
		return nil
	})
}
