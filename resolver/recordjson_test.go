package resolver

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/reflectfill"
)

// filledRecord returns a Record with every field set, found by reflection:
// a field added to Record is set too, so AppendRecord and DecodeRecord
// must know it for the tests below to pass.
func filledRecord(t *testing.T) *Record {
	t.Helper()
	var r Record
	err := reflectfill.Fill(reflect.ValueOf(&r).Elem(), func(v reflect.Value, n int) bool {
		if v.Type() != reflect.TypeFor[Timestamp]() {
			return false
		}
		v.Set(reflect.ValueOf(At(time.Date(2026, 11, 23, 10, 0, n, n*1e6, time.UTC))))
		return true
	})
	if err != nil {
		t.Fatalf("Record: %v", err)
	}
	v := reflect.ValueOf(r)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("filledRecord left %s zero", v.Type().Field(i).Name)
		}
	}
	return &r
}

// recordCases are the filled record, and it with each field zeroed in turn
// (every omitempty and omitzero), and the smallest records.
func recordCases(t *testing.T) map[string]*Record {
	full := filledRecord(t)
	cases := map[string]*Record{
		"every field":                 full,
		"zero":                        {},
		"minimal":                     {SessionID: "s", State: StateReady, CWD: "/p", UpdatedAt: At(time.Unix(1, 0))},
		"empty last_event and agents": {SessionID: "s", LastEvent: &LastEvent{}, Subagents: []string{}},
	}
	typ := reflect.TypeFor[Record]()
	for i := range typ.NumField() {
		c := *full
		reflect.ValueOf(&c).Elem().Field(i).SetZero()
		cases["without "+typ.Field(i).Name] = &c
	}
	return cases
}

func TestAppendRecordIsMarshalIndent(t *testing.T) {
	for name, r := range recordCases(t) {
		for _, prefix := range []string{"", "    "} {
			want, err := json.MarshalIndent(r, prefix, "  ")
			if err != nil {
				t.Fatal(err)
			}
			if got := AppendRecord([]byte("x"), r, prefix); !bytes.Equal(got[1:], want) || got[0] != 'x' {
				t.Errorf("%s, prefix %q: AppendRecord wrote\n%s\nencoding/json writes\n%s", name, prefix, got, want)
			}
		}
	}
}

func TestDecodeRecordIsUnmarshal(t *testing.T) {
	for name, r := range recordCases(t) {
		data, err := json.MarshalIndent(r, "    ", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want := unmarshalRecord(t, data)
		// What encoding/json and AppendRecord write is read by hand, not
		// left to encoding/json.
		got, ok := decodeRecordFast(data)
		if !ok {
			t.Errorf("%s: the fast decoder left the record to encoding/json:\n%s", name, data)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded\n%+v\nencoding/json decodes\n%+v", name, got, want)
		}
		if compact := compactJSON(t, data); !reflect.DeepEqual(mustDecode(t, compact), want) {
			t.Errorf("%s: compact form decoded differently", name)
		}
	}
}

// TestDecodeRecordOddInput holds DecodeRecord to encoding/json's result on
// input the hook never writes: whether it is read by hand or handed on.
func TestDecodeRecordOddInput(t *testing.T) {
	for _, in := range decodeSeeds {
		checkDecode(t, []byte(in))
	}
}

var decodeSeeds = []string{
	`{"session_id": "a", "pid": 12, "proc_started": -3}`,
	`{"session_id":"a","agents":[]}`,
	`{"session_id":"a","agents":null}`,
	`{"session_id":"a","agents":["x" , "y"]}`,
	`{"session_id":"a","last_event":{"event":"Stop"},"last_event":{"timestamp":"2026-01-01T00:00:00Z"}}`,
	`{"session_id":"a","last_event":null}`,
	`{"session_id":"a","last_event":{"other":1}}`,
	`{"session_id":"a","updated_at":null,"turn_started_at":"2026-01-01T01:02:03.5+02:00"}`,
	`{"session_id":"a","updated_at":"yesterday"}`,
	`{"session_id":"a","updated_at":"2026-01-01T00:00:00\u005aZ"}`,
	`{"Session_ID":"a"}`,
	`{"session_id":"a","future_field":{"x":[1,2]}}`,
	`{"session_id":null}`,
	`{"session_id":"a","pid":1e3}`,
	`{"session_id":"a","pid":01}`,
	`{"session_id":"a","pid":-0}`,
	`{"session_id":"a","pid":99999999999999999999}`,
	`{"session_id":"a","pid":"12"}`,
	`{"session_id":"a\u00e9\ud83d\ude00\ud800\"\\\/\b\f\n\r\t"}`,
	`{"session_id":"a\u00e9\u2028 \u0000"}`,
	"{\"session_id\":\"a\xff\"}",
	"{\"session_id\":\"a\x01\"}",
	`{"session_id":"a","state":"working",}`,
	`{"session_id":"a"} x`,
	` { "session_id" : "a" } `,
	`{}`,
	`null`,
	`[]`,
	``,
	`{"session_id":"a`,
	`{"session_id":"a\u12"}`,
}

// FuzzDecodeRecord holds DecodeRecord to encoding/json on any input.
func FuzzDecodeRecord(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkDecode(t, in) })
}

func checkDecode(t *testing.T, in []byte) {
	t.Helper()
	var want *Record
	wantErr := json.Unmarshal(in, &want)
	got, err := DecodeRecord(in)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", in, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decoded\n%+v\nencoding/json decodes\n%+v", in, got, want)
	}
}

func TestAppendJSONStringIsMarshal(t *testing.T) {
	var all strings.Builder
	for c := range 0x80 {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", all.String(), "\xff", "a\xe2\x80", "\u2028\u2029", "é😀", "<a href='x'>&amp;</a>"} {
		want, _ := json.Marshal(s)
		if got := AppendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, encoding/json writes %s", s, got, want)
		}
	}
}

func unmarshalRecord(t *testing.T, data []byte) *Record {
	t.Helper()
	var r *Record
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func mustDecode(t *testing.T, data []byte) *Record {
	t.Helper()
	r, err := DecodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func compactJSON(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDecodeLockMetaIsUnmarshal: a lock's meta.json as the hook writes it
// (every field set, found by reflection) is read by hand, to what
// encoding/json makes of it; odd input comes out as encoding/json's.
func TestDecodeLockMetaIsUnmarshal(t *testing.T) {
	var m LockMeta
	if err := reflectfill.Fill(reflect.ValueOf(&m).Elem(), nil); err != nil {
		t.Fatalf("LockMeta: %v", err)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := decodeLockMetaFast(data)
	if !ok || got != m {
		t.Fatalf("decoded %+v (by hand: %v), want %+v", got, ok, m)
	}
	for _, in := range []string{
		`{"pid":1,"path":"/p","created":2,"proc_started":3}`,
		`{"pid":1,"PATH":"/p"}`,
		`{"pid":1.5}`,
		`{"pid":null,"path":"/p"}`,
		`{"pid":1,"future":true}`,
		`{"pid":1} x`,
		`[]`,
		``,
	} {
		var want LockMeta
		wantErr := json.Unmarshal([]byte(in), &want)
		got, err := DecodeLockMeta([]byte(in))
		if (err != nil) != (wantErr != nil) || err == nil && got != want {
			t.Errorf("%q: %+v, %v; encoding/json: %+v, %v", in, got, err, want, wantErr)
		}
	}
}
