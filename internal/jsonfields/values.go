package jsonfields

import (
	"github.com/go-json-experiment/json/jsontext"
)

// Raw is any JSON value held as its text in *p, copied out of the input;
// null too, as encoding/json keeps it in a json.RawMessage. An empty Raw
// (absent) writes null.
func Raw[T ~[]byte](name string, p *T) Field {
	return Field{
		name:  name,
		empty: func() bool { return len(*p) == 0 },
		read: func(d *jsontext.Decoder) error {
			v, err := d.ReadValue()
			if err != nil {
				return err
			}
			*p = T(v.Clone())
			return nil
		},
		write: func(e *jsontext.Encoder) error {
			if len(*p) == 0 {
				return e.WriteToken(jsontext.Null)
			}
			return e.WriteValue(jsontext.Value(*p))
		},
	}
}

// Strings is a JSON array of strings held in *p; null is nil.
func Strings(name string, p *[]string) Field {
	return Field{
		name:  name,
		empty: func() bool { return len(*p) == 0 },
		read: func(d *jsontext.Decoder) error {
			return readArray(d, "[]string", func() { *p = nil }, func() { *p = []string{} }, func() error {
				var s string
				if err := String("", &s).read(d); err != nil {
					return err
				}
				*p = append(*p, s)
				return nil
			})
		},
		write: func(e *jsontext.Encoder) error {
			return writeArray(e, *p, *p == nil, func(s *string) error { return e.WriteToken(jsontext.String(*s)) })
		},
	}
}

// A Coder writes and reads its own JSON value, as encoding/json's
// Marshaler and Unmarshaler do.
type Coder interface {
	MarshalJSON() ([]byte, error)
	UnmarshalJSON([]byte) error
}

// Value is a JSON value that v reads and writes itself. Empty is a value
// that writes null.
func Value(name string, v Coder) Field {
	return Field{
		name: name,
		empty: func() bool {
			b, err := v.MarshalJSON()
			return err == nil && string(b) == "null"
		},
		read: func(d *jsontext.Decoder) error {
			raw, err := d.ReadValue()
			if err != nil {
				return err
			}
			if err := v.UnmarshalJSON(raw); err != nil {
				return &TypeError{Err: err}
			}
			return nil
		},
		write: func(e *jsontext.Encoder) error {
			b, err := v.MarshalJSON()
			if err != nil {
				return err
			}
			return e.WriteValue(b)
		},
	}
}

// Object is a JSON object held in the struct *p, whose fields fields lists.
func Object[T any](name string, p *T, fields func(*T) []Field) Field {
	return Field{
		name:  name,
		empty: func() bool { return false },
		read: func(d *jsontext.Decoder) error {
			if d.PeekKind() == 'n' {
				return d.SkipValue()
			}
			return readObject(d, fields(p))
		},
		write: func(e *jsontext.Encoder) error { return writeObject(e, fields(p)) },
	}
}

// Pointer is a JSON object held in a struct *p points to, whose fields
// fields lists; null is nil.
func Pointer[T any](name string, p **T, fields func(*T) []Field) Field {
	return Field{
		name:  name,
		empty: func() bool { return *p == nil },
		read: func(d *jsontext.Decoder) error {
			if d.PeekKind() == 'n' {
				*p = nil
				return d.SkipValue()
			}
			if *p == nil {
				*p = new(T)
			}
			return readObject(d, fields(*p))
		},
		write: func(e *jsontext.Encoder) error {
			if *p == nil {
				return e.WriteToken(jsontext.Null)
			}
			return writeObject(e, fields(*p))
		},
	}
}

// Objects is a JSON array of objects held in the slice **p, whose fields
// fields lists. *p tells an absent or null array (nil) from an empty one.
func Objects[T any](name string, p **[]T, fields func(*T) []Field) Field {
	return Field{
		name:  name,
		empty: func() bool { return *p == nil },
		read: func(d *jsontext.Decoder) error {
			list := []T{} // *p points at it: each element read extends what *p sees
			return readArray(d, "array of objects", func() { *p = nil }, func() { *p = &list }, func() error {
				var v T
				err := readObject(d, fields(&v))
				list = append(list, v)
				return err
			})
		},
		write: func(e *jsontext.Encoder) error {
			if *p == nil {
				return e.WriteToken(jsontext.Null)
			}
			return writeArray(e, **p, false, func(v *T) error { return writeObject(e, fields(v)) })
		},
	}
}

// writeArray writes list as a JSON array, each element by each; null
// writes null instead.
func writeArray[T any](e *jsontext.Encoder, list []T, null bool, each func(*T) error) error {
	if null {
		return e.WriteToken(jsontext.Null)
	}
	if err := e.WriteToken(jsontext.BeginArray); err != nil {
		return err
	}
	for i := range list {
		if err := each(&list[i]); err != nil {
			return err
		}
	}
	return e.WriteToken(jsontext.EndArray)
}
