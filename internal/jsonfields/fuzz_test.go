package jsonfields

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzAsEncodingJSON: whatever a string holds, Append writes what
// encoding/json writes (but for invalid UTF-8, which it writes
// as U+FFFD itself rather than its escape), and Decode and Unquote read
// back what encoding/json reads.
func FuzzAsEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "<&>", "\u2028\x00\x1f\"\\", "\xff\xfe", "é😀", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			t.Skip() // escaping is per character: a long string finds nothing a short one does not
		}
		v := sample{S: s, O: s, L: []string{s, ""}, V: inner{A: s}}
		want, err := json.MarshalIndent(v, "    ", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got, err := Append(nil, "    ", "  ", v.fields()...)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != strings.ReplaceAll(string(want), `\ufffd`, "\ufffd") {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
		quoted, _ := json.Marshal(s)
		var unquoted string
		json.Unmarshal(quoted, &unquoted)
		if back, err := Unquote(quoted); err != nil || back != unquoted {
			t.Fatalf("Unquote(%s) = %q, %v; want %q", quoted, back, err, unquoted)
		}
		var back, v1 sample
		if err := Decode(got, back.fields()...); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &v1); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, v1) {
			t.Fatalf("read back %+v, encoding/json %+v", back, v1)
		}
	})
}

// FuzzDecode: no input makes Decode panic, and an input encoding/json
// rejects as malformed Decode rejects too.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{}`, `{"s":"a","l":["b"],"n":{"a":"c"}}`, `{"s":`, `[1]`, `{"v":{"c":1e400}}`, "{\"s\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var got sample
		err := Decode(b, got.fields()...)
		if !json.Valid(b) && err == nil {
			t.Fatalf("%q: not JSON, yet no error", b)
		}
	})
}
