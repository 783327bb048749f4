package jsonfields

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sample has one field of every kind, tagged as its fields list names it,
// so encoding/json can say what the output should be.
type sample struct {
	S   string          `json:"s"`
	O   string          `json:"o,omitempty"`
	B   bool            `json:"b"`
	I   int             `json:"i,omitempty"`
	I64 int64           `json:"i64"`
	R   json.RawMessage `json:"r,omitempty"`
	L   []string        `json:"l,omitempty"`
	N   *inner          `json:"n,omitempty"`
	V   inner           `json:"v"`
	T   stamp           `json:"t,omitzero"`
}

type inner struct {
	A string `json:"a"`
	C int    `json:"c"`
}

// stamp writes null when zero, as store.Timestamp does.
type stamp struct{ n int }

func (s stamp) MarshalJSON() ([]byte, error) {
	if s.n == 0 {
		return []byte("null"), nil
	}
	return json.Marshal(s.n)
}

func (s *stamp) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		s.n = 0
		return nil
	}
	return json.Unmarshal(b, &s.n)
}

func (s stamp) IsZero() bool { return s.n == 0 }

func (in *inner) fields() []Field { return []Field{String("a", &in.A), Int("c", &in.C)} }

func (s *sample) fields() []Field {
	return []Field{
		String("s", &s.S),
		String("o", &s.O).OmitEmpty(),
		Bool("b", &s.B),
		Int("i", &s.I).OmitEmpty(),
		Int("i64", &s.I64),
		Raw("r", &s.R).OmitEmpty(),
		Strings("l", &s.L).OmitEmpty(),
		Pointer("n", &s.N, (*inner).fields).OmitEmpty(),
		Object("v", &s.V, (*inner).fields),
		Value("t", &s.T).OmitEmpty(),
	}
}

func TestAppendWritesAsMarshalIndent(t *testing.T) {
	odd := "a<b>&c\u2028\u2029\x01\"\\\t\xff end"
	for _, s := range []sample{
		{},
		{S: "x", O: "y", B: true, I: -3, I64: 1 << 40, R: json.RawMessage(`{"k":[1,2]}`), L: []string{"p", odd}, N: &inner{A: "n", C: 2}, V: inner{A: odd}, T: stamp{7}},
		{S: odd, L: []string{}, N: &inner{}},
	} {
		for _, layout := range [][2]string{{"", ""}, {"", "  "}, {"    ", "  "}} {
			want, err := json.MarshalIndent(s, layout[0], layout[1])
			if layout == [2]string{"", ""} {
				want, err = json.Marshal(s)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := Append(nil, layout[0], layout[1], s.fields()...)
			if err != nil {
				t.Fatal(err)
			}
			// encoding/json writes invalid UTF-8 as the escape \ufffd,
			// jsontext as the character itself: the same string.
			want = []byte(strings.ReplaceAll(string(want), `\ufffd`, "\ufffd"))
			if string(got) != string(want) {
				t.Errorf("layout %q:\n got %s\nwant %s", layout, got, want)
			}
			var back sample
			if err := Decode(got, back.fields()...); err != nil {
				t.Fatalf("decoding %s: %v", got, err)
			}
			var v1 sample
			if err := json.Unmarshal(got, &v1); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, v1) {
				t.Errorf("decoded %s:\n got %+v\nwant %+v (encoding/json)", got, back, v1)
			}
		}
	}
}

func TestAppendAppends(t *testing.T) {
	var s sample
	got, err := Append([]byte("x: "), "", "", String("s", &s.S))
	if err != nil || string(got) != `x: {"s":""}` {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, in string
		want     sample
		typeErr  string // the field of the *TypeError expected
		err      string // another error expected
	}{
		{name: "unknown members skipped", in: `{"x":{"y":[1,{"z":null}]},"s":"a"}`, want: sample{S: "a"}},
		{name: "null leaves a value", in: `{"s":null,"i":null,"l":null,"n":null,"v":null}`},
		{name: "null is a raw value", in: `{"r":null}`, want: sample{R: json.RawMessage("null")}},
		{name: "last of twice", in: `{"s":"a","s":"b"}`, want: sample{S: "b"}},
		{name: "escapes", in: `{"s":"\u00e9\n\ud83d\ude00"}`, want: sample{S: "é\n😀"}},
		{name: "invalid UTF-8", in: "{\"s\":\"a\xffb\"}", want: sample{S: "a\ufffdb"}},
		{name: "a wrong type is reported after the rest", in: `{"s":1,"b":true,"o":"k"}`, want: sample{B: true, O: "k"}, typeErr: "s"},
		{name: "a wrong type below", in: `{"v":{"a":[],"c":4},"n":{"c":"x"}}`, want: sample{V: inner{C: 4}, N: &inner{}}, typeErr: "v.a"},
		{name: "a fraction is no int", in: `{"i":1.5,"s":"a"}`, want: sample{S: "a"}, typeErr: "i"},
		{name: "a wrong element", in: `{"l":["a",2,"c"]}`, want: sample{L: []string{"a", "c"}}, typeErr: "l"},
		{name: "raw kept", in: `{"r": [1, {"a":2}] }`, want: sample{R: json.RawMessage(`[1, {"a":2}]`)}},
		{name: "a value's own check", in: `{"t":"x"}`, typeErr: "t"},
		{name: "an array", in: `[]`, err: "not a JSON object"},
		{name: "empty", in: ``, err: "not a JSON object"},
		{name: "truncated", in: `{"s":"a"`, err: "EOF"},
		{name: "two values", in: `{} {}`, err: "more than one JSON value"},
		{name: "bad syntax inside", in: `{"s":"a",}`, err: "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got sample
			err := Decode([]byte(tt.in), got.fields()...)
			var te *TypeError
			switch {
			case tt.err != "":
				if err == nil || errors.As(err, &te) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			case tt.typeErr != "":
				if !errors.As(err, &te) || te.Field != tt.typeErr {
					t.Fatalf("err = %v, want a type error of %q", err, tt.typeErr)
				}
			case err != nil:
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestRequired(t *testing.T) {
	var a, b string
	fields := []Field{String("a", &a).Required(), String("b", &b)}
	for in, want := range map[string]string{
		`{"a":"x"}`:          "",
		`{"b":"x"}`:          `missing "a"`,
		`{"a":null,"b":"x"}`: `missing "a"`,
		`{"a":"x","b":null}`: "",
		`{"a":"x","a":null}`: `missing "a"`,
	} {
		err := Decode([]byte(in), fields...)
		if (err == nil) != (want == "") || err != nil && err.Error() != want {
			t.Errorf("%s: err = %v, want %q", in, err, want)
		}
	}
}

func TestObjects(t *testing.T) {
	type task struct{ ID, Status string }
	taskFields := func(t *task) []Field { return []Field{String("id", &t.ID), String("status", &t.Status)} }
	for in, want := range map[string]*[]task{
		`{}`:         nil,
		`{"l":null}`: nil,
		`{"l":[]}`:   {},
		`{"l":[{"id":"a"},{"status":"s","x":1}]}`: {{ID: "a"}, {Status: "s"}},
	} {
		var got *[]task
		if err := Decode([]byte(in), Objects("l", &got, taskFields)); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", in, got, want)
		}
	}
}

func TestEach(t *testing.T) {
	var got []string
	err := Each([]byte(`{"a": 1, "b": {"c": [2]}, "a": "x"}`), func(name string, v []byte) error {
		got = append(got, name+"="+string(v))
		return nil
	})
	if want := []string{"a=1", `b={"c": [2]}`, `a="x"`}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{`[]`, `{"a":1`, `{"a":1} 2`, ``} {
		if err := Each([]byte(bad), func(string, []byte) error { return nil }); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	stop := errors.New("stop")
	if err := Each([]byte(`{"a":1,"b":2}`), func(string, []byte) error { return stop }); err != stop {
		t.Errorf("each's error: %v", err)
	}
}

func TestStrings(t *testing.T) {
	for _, s := range []string{"", "a", "<é>\u2028\x00\"\\"} {
		quoted, _ := json.Marshal(s)
		if back, err := Unquote(quoted); err != nil || back != s {
			t.Errorf("Unquote(%s) = %q, %v", quoted, back, err)
		}
	}
	if _, err := Unquote([]byte(`"a`)); err == nil {
		t.Error("Unquote of half a string: no error")
	}
	got, err := Compact([]byte("k:"), []byte(" { \"a\" : [ 1 , \"\\u00e9 x\" ] } "))
	if err != nil || string(got) != `k:{"a":[1,"\u00e9 x"]}` {
		t.Errorf("Compact = %s, %v", got, err)
	}
	if got, err := Compact([]byte("k:"), []byte(`{"a":`)); err == nil || string(got) != "k:" {
		t.Errorf("Compact of half an object = %s, %v", got, err)
	}
}
