package hook

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/capacitor-hud/hud/internal/safefile"

	"github.com/capacitor-hud/hud/resolver"
)

// bigStore is a canonical store of n records, and its text.
func bigStore(t *testing.T, n int) (*resolver.Store, []byte) {
	t.Helper()
	s := resolver.NewStore()
	at := resolver.At(t0)
	for i := range n {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		s.Sessions[id] = &resolver.Record{SessionID: id, State: resolver.StateReady, CWD: fmt.Sprintf("/p/%d", i),
			UpdatedAt: at, StateChangedAt: at, LastEvent: &resolver.LastEvent{Event: "Stop", Timestamp: at}}
	}
	b, err := resolver.EncodeStore(s)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// TestEncodeReusesTheFile: an event that changes one record of a big
// store writes it in a few pieces, most of them the file as read, and the
// text is still EncodeStore's.
func TestEncodeReusesTheFile(t *testing.T) {
	s, data := bigStore(t, 200)
	for _, edit := range []struct {
		name string
		do   func(tb *table, s *resolver.Store)
	}{
		{"one record changed", func(tb *table, s *resolver.Store) {
			r, _ := tb.get("00000000-0000-4000-8000-000000000100")
			r.State = resolver.StateWorking
			tb.put(r)
			s.Sessions[r.SessionID] = r
		}},
		{"one record added", func(tb *table, s *resolver.Store) {
			r := &resolver.Record{SessionID: "00000000-0000-4000-8000-000000000100x", State: resolver.StateWorking}
			tb.put(r)
			s.Sessions[r.SessionID] = r
		}},
		{"first and last removed", func(tb *table, s *resolver.Store) {
			for _, id := range []string{"00000000-0000-4000-8000-000000000000", "00000000-0000-4000-8000-000000000199"} {
				tb.remove(id)
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
		out := encoded(t, tb)
		wantText, _ := resolver.EncodeStore(want)
		if got := out.bytes(); !bytes.Equal(got, wantText) {
			t.Errorf("%s: encoded\n%s\nwant\n%s", edit.name, got, wantText)
		}
		if len(out.list) > 5 {
			t.Errorf("%s: %d pieces, want at most 5", edit.name, len(out.list))
		}
	}
}

func cloneStore(t *testing.T, s *resolver.Store) *resolver.Store {
	t.Helper()
	b, _ := resolver.EncodeStore(s)
	c, _, err := resolver.DecodeStore(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestWriteAtomicPieces: what is written is the pieces' text, whatever
// their number (more than one writev takes) and sizes.
func TestWriteAtomicPieces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sessions.json")
	for _, n := range []int{0, 1, 3, safefile.IOVMax, safefile.IOVMax + 1, 3*safefile.IOVMax + 7} {
		var o pieces
		src := bytes.Repeat([]byte("0123456789"), n+1)
		for i := range n {
			if i%2 == 0 {
				o.addText([]byte(fmt.Sprintf("<%d>", i)))
			} else {
				o.addSrc(src[i*10 : i*10+5]) // never contiguous
			}
		}
		if _, err := writeAtomic(path, &o); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := o.bytes(); !bytes.Equal(got, want) || len(got) != o.len() {
			t.Errorf("%d pieces: wrote %d bytes, want %d", n, len(got), len(want))
		}
	}
}

// TestEncodeAfterFullDecode: a store decoded in full (another writer's
// file) is written from generated text alone.
func TestEncodeAfterFullDecode(t *testing.T) {
	s, want := bigStore(t, 300)
	out := encoded(t, tableFromStore(s))
	if got := out.bytes(); !bytes.Equal(got, want) {
		t.Fatalf("encoded differently from EncodeStore")
	}
	path := filepath.Join(t.TempDir(), "sessions.json")
	if _, err := writeAtomic(path, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Fatalf("wrote differently from EncodeStore")
	}
}
