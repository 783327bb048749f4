package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzValue: whatever the scanner accepts as one whole value is valid JSON
// (it never lets through what encoding/json would reject), and it returns
// the value's own text.
func FuzzValue(f *testing.F) {
	for _, s := range []string{
		`null`, `true`, `-0.5e+3`, `01`, `1.`, `-`, `"a\u00e9\ud83d\ude00"`, `"\ud83d"`, "\"\xff\"",
		`{"a":[1,{"b":null}],"c":"d"}`, `{"a":1,}`, `[1 2]`, ` [ ] `, `{"a" 1}`, `"\x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s := New(in)
		v, err := s.Value()
		if err != nil || !s.End() {
			return
		}
		if !json.Valid(in) {
			t.Fatalf("accepted %q, which is not JSON", in)
		}
		if !json.Valid(v) || len(v) == 0 || v[0] != in[len(in)-len(bytes.TrimLeft(in, " \t\n\r"))] {
			t.Fatalf("value %q of %q is not its text", v, in)
		}
	})
}

func TestString(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`"plain"`, "plain", true},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t", true},
		{`"\u00e9\u20AC"`, "é€", true},
		{`"\ud83d\ude00"`, "😀", true},
		{`"\ud83d"`, "", false},       // lone surrogate: encoding/json's
		{`"\ude00\ud83d"`, "", false}, // reversed pair
		{"\"a\xffb\"", "", false},     // invalid UTF-8
		{"\"a\x01\"", "", false},      // raw control character
		{`"\x"`, "", false},
		{`"abc`, "", false},
	} {
		var got string
		err := New([]byte(c.in)).String(&got)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%s: %q, %v; want %q, ok %v", c.in, got, err, c.want, c.ok)
		}
		if c.ok {
			var want string
			if json.Unmarshal([]byte(c.in), &want) != nil || want != got {
				t.Errorf("%s: encoding/json reads %q", c.in, want)
			}
		}
	}
}
