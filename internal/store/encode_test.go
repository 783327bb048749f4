package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// bigStore is a canonical store of n records, and its text.
func bigStore(t *testing.T, n int) (*Store, []byte) {
	t.Helper()
	s := New()
	at := At(t0)
	for i := range n {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		s.Sessions[id] = &Record{SessionID: id, State: StateReady, CWD: fmt.Sprintf("/p/%d", i),
			UpdatedAt: at, StateChangedAt: at, LastEvent: &LastEvent{Event: "Stop", Timestamp: at}}
	}
	b, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// TestEncodeAfterEdits: an edit of a big store read the fast way (its
// untouched records copied as they were read) writes Encode's text.
func TestEncodeAfterEdits(t *testing.T) {
	s, data := bigStore(t, 200)
	for _, edit := range []struct {
		name string
		do   func(tb *Table, s *Store)
	}{
		{"one record changed", func(tb *Table, s *Store) {
			r, _ := tb.Get("00000000-0000-4000-8000-000000000100")
			r.State = StateWorking
			tb.Put(r)
			s.Sessions[r.SessionID] = r
		}},
		{"one record added", func(tb *Table, s *Store) {
			r := &Record{SessionID: "00000000-0000-4000-8000-000000000100x", State: StateWorking}
			tb.Put(r)
			s.Sessions[r.SessionID] = r
		}},
		{"first and last removed", func(tb *Table, s *Store) {
			for _, id := range []string{"00000000-0000-4000-8000-000000000000", "00000000-0000-4000-8000-000000000199"} {
				tb.Remove(id)
				delete(s.Sessions, id)
			}
		}},
	} {
		tb, ok := parseCanonical(bytes.Clone(data))
		if !ok {
			t.Fatal("not canonical")
		}
		want := cloneStore(t, s)
		edit.do(tb, want)
		wantText, _ := Encode(want)
		if got := encoded(t, tb); !bytes.Equal(got, wantText) {
			t.Errorf("%s: encoded\n%s\nwant\n%s", edit.name, got, wantText)
		}
	}
}

func cloneStore(t *testing.T, s *Store) *Store {
	t.Helper()
	b, _ := Encode(s)
	c, _, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEncodeAfterFullDecode: a store decoded in full (another writer's
// file) is written from generated text alone.
func TestEncodeAfterFullDecode(t *testing.T) {
	s, want := bigStore(t, 300)
	out := encoded(t, tableFromStore(s))
	if !bytes.Equal(out, want) {
		t.Fatalf("encoded differently from Encode")
	}
	path := filepath.Join(t.TempDir(), "sessions.json")
	if _, err := writeAtomic(path, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Fatalf("wrote differently from Encode")
	}
}
