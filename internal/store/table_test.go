package store

import (
	"bytes"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// sampleStore is a store with records of every shape the hook writes,
// and text in them that needs JSON escaping.
func sampleStore() *Store {
	s := New()
	at := At(t0)
	for i, id := range []string{"a", "b.c_d-e", "7261fbe8-c132-4197-8154-4b9c1e3e818d", "Z9"} {
		s.Sessions[id] = &Record{
			SessionID: id, State: StateWorking, CWD: "/p/" + id,
			UpdatedAt: at, StateChangedAt: at, WorkingOn: "task <b> & \"quotes\"\n",
			LastEvent: &LastEvent{Event: "PreToolUse", Timestamp: at},
			PID:       100 + i, ToolsInFlight: i, TurnStartedAt: at,
		}
	}
	s.Ended = map[string]Timestamp{"gone": at, "gone-2": at}
	return s
}

func TestEncodeMatchesEncodeStore(t *testing.T) {
	for _, s := range []*Store{New(), sampleStore(), func() *Store {
		s := sampleStore()
		s.Ended = nil
		return s
	}()} {
		want, err := Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		// Every record decoded...
		got := encoded(t, tableFromStore(s))
		if !bytes.Equal(got, want) {
			t.Fatalf("decoded table encodes as\n%s\nwant\n%s", got, want)
		}
		// ...and every record raw, split from the file.
		tb, ok := parseCanonical(want)
		if !ok {
			t.Fatalf("Encode output not taken as canonical:\n%s", want)
		}
		if tb.Len() != len(s.Sessions) || len(tb.Ended) != len(s.Ended) {
			t.Fatalf("split %d records, %d ended; want %d, %d", tb.Len(), len(tb.Ended), len(s.Sessions), len(s.Ended))
		}
		if got = encoded(t, tb); !bytes.Equal(got, want) {
			t.Fatalf("raw table encodes as\n%s\nwant\n%s", got, want)
		}
		// A raw record decodes to what was stored.
		for id, rec := range s.Sessions {
			r, err := tb.Get(id)
			if err != nil || r == nil || r.SessionID != rec.SessionID || r.ToolsInFlight != rec.ToolsInFlight || r.WorkingOn != rec.WorkingOn {
				t.Errorf("get(%q) = %+v, %v", id, r, err)
			}
			if pid, _ := tb.Process(id); pid != rec.PID {
				t.Errorf("process(%q) pid %d, want %d", id, pid, rec.PID)
			}
		}
	}
}

// TestKeysAreSessionIDs: the store's keys are written and split as they
// are, which only a session id allows: a table holding another key fails
// to encode, and a file in the canonical layout with one is not split but
// decoded in full (which drops that record).
func TestKeysAreSessionIDs(t *testing.T) {
	for _, id := range []string{`q"uote`, "b<&>", "é", "../x", ""} {
		tb := NewTable()
		tb.Put(&Record{SessionID: id, State: StateWorking, UpdatedAt: At(t0)})
		if b, err := tb.encode(); err == nil {
			t.Errorf("%q: encoded as\n%s", id, b)
		}
		tb = NewTable()
		tb.Ended[id] = At(t0)
		if b, err := tb.encode(); err == nil {
			t.Errorf("%q ended: encoded as\n%s", id, b)
		}
	}
	odd := sampleStore()
	odd.Sessions[`q"uote`] = &Record{SessionID: `q"uote`, State: StateReady, UpdatedAt: At(t0), StateChangedAt: At(t0)}
	b, err := Encode(odd)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := parseCanonical(b); ok {
		t.Errorf("a store with a key that is not a session id was split:\n%s", b)
	}
}

func TestParseCanonicalRejectsOtherLayouts(t *testing.T) {
	canonical, _ := Encode(sampleStore())
	for name, b := range map[string]string{
		"compact":          `{"version":3,"sessions":{}}`,
		"version 2":        "{\n  \"version\": 2,\n  \"sessions\": {}\n}\n",
		"no final newline": string(bytes.TrimSuffix(canonical, []byte("\n"))),
		"truncated":        string(canonical[:len(canonical)/2]),
		"trailing garbage": string(canonical) + "x",
		"tabs":             string(bytes.ReplaceAll(canonical, []byte("  "), []byte("\t"))),
	} {
		if _, ok := parseCanonical([]byte(b)); ok {
			t.Errorf("%s: taken as canonical", name)
		}
	}
}

// TestDropStale: the store keeps only records dated within a day before
// now and a few minutes after it; one dated far ahead (a clock that was
// wrong) or not dated at all would otherwise never be pruned.
func TestDropStale(t *testing.T) {
	tests := []struct {
		name    string
		age     time.Duration // before t0; negative is in the future
		undated bool
		keep    bool
	}{
		{"just now", 0, false, true},
		{"23 hours ago", 23 * time.Hour, false, true},
		{"a clock a few minutes ahead", -5 * time.Minute, false, true},
		{"25 hours ago", 25 * time.Hour, false, false},
		{"weeks ago", 1000 * time.Hour, false, false},
		{"an hour ahead", -time.Hour, false, false},
		{"years ahead", -20000 * time.Hour, false, false},
		{"undated", 0, true, false},
	}
	s := New()
	var want []string
	for i, tt := range tests {
		id := fmt.Sprint("s", i)
		r := &Record{SessionID: id, State: StateReady, UpdatedAt: At(t0.Add(-tt.age))}
		if tt.undated {
			r.UpdatedAt = Timestamp{}
		}
		s.Sessions[id] = r
		if tt.keep {
			want = append(want, id)
		}
	}
	b, _ := Encode(s)
	raw, _ := parseCanonical(b)
	// Another writer's spellings, read through the slow path.
	rec := func(id, updated string) []byte {
		b := "{\n      \"session_id\": \"" + id + "\""
		if updated != "" {
			b += ",\n      \"updated_at\": " + updated
		}
		return []byte(b + "\n    }")
	}
	raw.raw["s8"] = rec("s8", `"yesterday"`)
	raw.raw["s9"] = rec("s9", "")
	raw.raw["s10"] = rec("s10", `"`+t0.Add(-time.Hour).UTC().Format(time.RFC3339)+`"`)
	raw.raw["s11"] = rec("s11", `"`+t0.Add(time.Hour).UTC().Format(time.RFC3339)+`"`)
	for name, tb := range map[string]*Table{"decoded": tableFromStore(s), "raw": raw} {
		tb.DropStale(t0)
		wantHere := want
		if name == "raw" {
			wantHere = append([]string{"s0", "s1", "s10"}, want[2:]...)
		}
		if got := tb.IDs(); fmt.Sprint(got) != fmt.Sprint(wantHere) {
			t.Errorf("%s: kept %v, want %v", name, got, wantHere)
		}
	}
}

// BenchmarkUpdateStore is one event's store work (lock, read, apply,
// encode, replace) on a store of 200 sessions, the hook's own file.
func BenchmarkUpdateStore(b *testing.B) {
	l := paths.Layout{Home: b.TempDir()}
	s := New()
	now := time.Now()
	at := At(now)
	for i := range 200 {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		s.Sessions[id] = &Record{SessionID: id, State: StateReady, CWD: "/p/" + id, UpdatedAt: at, StateChangedAt: at,
			WorkingOn: "Refactor the session store so the hook decodes only what it touches", ProjectDir: "/p/" + id,
			LastEvent: &LastEvent{Event: "Stop", Timestamp: at}, PID: 1000 + i, ProcStarted: now.Unix() - 3600, TurnStartedAt: at}
	}
	data, _ := Encode(s)
	os.MkdirAll(l.StoreDir(), 0o700)
	os.WriteFile(l.StorePath(), data, 0o600)
	const id = "00000000-0000-4000-8000-000000000100"
	b.ReportAllocs()
	for b.Loop() {
		err := Update(l, now, func(string, ...any) {}, func(t *Table) bool {
			r, _ := t.Get(id)
			r.LastTool = "Bash"
			t.Put(r)
			return true
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseCanonicalEnded: the store's "ended" object is split off with
// the records; one the hook would not have written (a time it cannot read)
// sends the file to the full, validating decode instead.
func TestParseCanonicalEnded(t *testing.T) {
	const head = "{\n  \"version\": 3,\n  \"sessions\": {},\n  \"ended\": "
	for _, c := range []struct {
		ended string
		ok    bool
		n     int
	}{
		{"{\n    \"a\": \"2026-11-23T09:00:00.123Z\",\n    \"b\": \"2026-11-23T09:00:01Z\"\n  }", true, 2},
		{"{\n    \"a\": null\n  }", true, 1},
		{"{\n    \"a\": \"yesterday\"\n  }", false, 0},
		{"{\n    \"a\": 5\n  }", false, 0},
	} {
		tb, ok := parseCanonical([]byte(head + c.ended + "\n}\n"))
		if ok != c.ok || ok && len(tb.Ended) != c.n {
			t.Errorf("%q: taken %v, want %v (%d entries)", c.ended, ok, c.ok, c.n)
		}
	}
}

// encoded is tb.encode(), which fails the test on an error.
func encoded(t testing.TB, tb *Table) []byte {
	t.Helper()
	out, err := tb.encode()
	if err != nil {
		t.Fatal(err)
	}
	return out
}
