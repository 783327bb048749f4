package jsonfields

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// A Field is one member of a JSON object: its name, and how its value is
// read into and written from a Go value.
type Field struct {
	name     string
	omit     bool        // left out of the output when empty
	required bool        // Decode fails when it is absent or null
	empty    func() bool // the Go value is its type's zero (omitempty's test)
	read     func(*jsontext.Decoder) error
	write    func(*jsontext.Encoder) error
}

// Name returns the member's name.
func (f Field) Name() string { return f.name }

// OmitEmpty returns f left out of the output while its value is empty: "",
// false, 0, a nil or empty slice, a nil pointer, or, for a [Value], one that
// writes null. It is encoding/json's omitempty (and omitzero for a Value).
func (f Field) OmitEmpty() Field {
	f.omit = true
	return f
}

// Required returns f such that [Decode] fails when the object lacks it or
// has it null.
func (f Field) Required() Field {
	f.required = true
	return f
}

// TypeError is a member whose value is of the wrong JSON type for its
// field, or that a Value refused. Decode reads on past it and returns the
// first one.
type TypeError struct {
	Field string // the member's name, dotted below the top level
	Got   string // the JSON type found: "string", "number", "object", …
	Want  string // the Go type of the field
	Err   error  // for a Value, why it refused the value; Got and Want are then ""
}

func (e *TypeError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("field %q: %v", e.Field, e.Err)
	}
	return fmt.Sprintf("field %q: cannot read a JSON %s into a Go %s", e.Field, e.Got, e.Want)
}

func (e *TypeError) Unwrap() error { return e.Err }

// kindName names a JSON kind for a TypeError.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case '{':
		return "object"
	case '[':
		return "array"
	case 'n':
		return "null"
	}
	return "value"
}

// scalar builds the read of a field held in *p whose JSON kinds are kinds:
// null leaves the value as it was, as encoding/json does; any other kind
// is skipped and reported, and zeroes the value, so that of a name given
// twice the last counts.
func scalar[T any](p *T, want string, set func(jsontext.Token) error, kinds ...jsontext.Kind) func(*jsontext.Decoder) error {
	return func(d *jsontext.Decoder) error {
		k := d.PeekKind()
		if k == 'n' || !slices.Contains(kinds, k) {
			if err := d.SkipValue(); err != nil {
				return err
			}
			if k == 'n' {
				return nil
			}
			var zero T
			*p = zero
			return &TypeError{Got: kindName(k), Want: want}
		}
		t, err := d.ReadToken()
		if err != nil {
			return err
		}
		return set(t)
	}
}

// String is a JSON string held in *p.
func String[T ~string](name string, p *T) Field {
	return Field{
		name:  name,
		empty: func() bool { return *p == "" },
		read: scalar(p, "string", func(t jsontext.Token) error {
			*p = T(t.String())
			return nil
		}, '"'),
		write: func(e *jsontext.Encoder) error { return e.WriteToken(jsontext.String(string(*p))) },
	}
}

// Bool is a JSON boolean held in *p.
func Bool(name string, p *bool) Field {
	return Field{
		name:  name,
		empty: func() bool { return !*p },
		read: scalar(p, "bool", func(t jsontext.Token) error {
			*p = t.Bool()
			return nil
		}, 't', 'f'),
		write: func(e *jsontext.Encoder) error { return e.WriteToken(jsontext.Bool(*p)) },
	}
}

// Int is a JSON number held in *p, an integer that fits it.
func Int[T ~int | ~int64](name string, p *T) Field {
	return Field{
		name:  name,
		empty: func() bool { return *p == 0 },
		read: scalar(p, "int", func(t jsontext.Token) error {
			n, err := strconv.ParseInt(t.String(), 10, 64)
			if err != nil || int64(T(n)) != n {
				*p = 0
				return &TypeError{Got: "number " + t.String(), Want: "int"}
			}
			*p = T(n)
			return nil
		}, '0'),
		write: func(e *jsontext.Encoder) error { return e.WriteToken(jsontext.Int(int64(*p))) },
	}
}
