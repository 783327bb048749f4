package jsonfields

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// Decode reads the JSON object b into fields. Members no field names are
// skipped. A member of the wrong type sets nothing (a string, number or
// boolean field is zeroed, so that of a name given twice the last counts)
// and is returned as a *TypeError once the rest is read; any other error
// (b is not one JSON object, a required field is missing) stops the
// reading, and the fields may then hold part of b. Names match exactly, as encoding/json/v2
// matches them (encoding/json also takes "Session_ID" for "session_id").
func Decode(b []byte, fields ...Field) error { return decodeWith(decoder(b), fields) }

// A Decoder decodes one object after another, as Decode does, through one
// reader made once: a file of many lines pays for it once, not per line.
// The zero Decoder is ready to use.
type Decoder struct {
	buf bytes.Buffer
	d   *jsontext.Decoder
}

// Decode is Decode through x.
func (x *Decoder) Decode(b []byte, fields ...Field) error {
	x.buf.Reset()
	x.buf.Write(b)
	if x.d == nil {
		x.d = jsontext.NewDecoder(&x.buf, decodeOptions...)
	} else {
		x.d.Reset(&x.buf, decodeOptions...)
	}
	return decodeWith(x.d, fields)
}

func decodeWith(d *jsontext.Decoder, fields []Field) error {
	if err := atObject(d); err != nil {
		return err
	}
	err := readObject(d, fields)
	if err != nil && !errors.As(err, new(*TypeError)) {
		return err
	}
	if end := atEnd(d); end != nil {
		return end
	}
	return err
}

// decoder reads b as leniently as encoding/json reads: a name given twice,
// invalid UTF-8. A bytes.Buffer is read in place: it copies nothing.
func decoder(b []byte) *jsontext.Decoder {
	return jsontext.NewDecoder(bytes.NewBuffer(b), decodeOptions...)
}

var decodeOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// atObject checks that d's input is a JSON object.
func atObject(d *jsontext.Decoder) error {
	switch k := d.PeekKind(); k {
	case '{':
		return nil
	case 0:
		_, err := d.ReadToken()
		return fmt.Errorf("not a JSON object: %w", err)
	default:
		return fmt.Errorf("not a JSON object: a JSON %s", kindName(k))
	}
}

// atEnd checks that nothing follows the value d read.
func atEnd(d *jsontext.Decoder) error {
	_, err := d.ReadToken()
	switch err {
	case io.EOF:
		return nil
	case nil:
		return errors.New("more than one JSON value")
	}
	return err
}

// encoder writes to out, escaping as encoding/json escapes: the HTML
// characters, U+2028 and U+2029, and invalid UTF-8 as U+FFFD.
func encoder(out *bytes.Buffer, layout ...jsontext.Options) *jsontext.Encoder {
	opts := append([]jsontext.Options{jsontext.EscapeForHTML(true), jsontext.EscapeForJS(true), jsontext.AllowInvalidUTF8(true)}, layout...)
	return jsontext.NewEncoder(out, opts...)
}

// readObject reads one object into fields, as Decode describes.
func readObject(d *jsontext.Decoder, fields []Field) error {
	if k := d.PeekKind(); k != '{' {
		if k == 0 {
			_, err := d.ReadToken()
			return err
		}
		if err := d.SkipValue(); err != nil {
			return err
		}
		return &TypeError{Got: kindName(k), Want: "struct"}
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	var seen []bool // which fields had a value, kept only when one is required
	for _, f := range fields {
		if f.required {
			seen = make([]bool, len(fields))
			break
		}
	}
	var first error
	for d.PeekKind() != '}' {
		t, err := d.ReadToken()
		if err != nil {
			return err
		}
		name := t.String()
		i := index(fields, name)
		if i < 0 {
			if err := d.SkipValue(); err != nil {
				return err
			}
			continue
		}
		null := d.PeekKind() == 'n'
		if err := fields[i].read(d); err != nil {
			var te *TypeError
			if !errors.As(err, &te) {
				return err
			}
			te.Field = joinName(name, te.Field)
			if first == nil {
				first = te
			}
			continue
		}
		if seen != nil {
			seen[i] = !null
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for i, f := range fields {
		if f.required && !seen[i] {
			return fmt.Errorf("missing %q", f.name)
		}
	}
	return first
}

// readArray reads a JSON array, calling null for null, begin at its start
// and each for each element; each reads the element. A wrong-typed element
// is reported once the rest is read, as readObject does.
func readArray(d *jsontext.Decoder, want string, null, begin func(), each func() error) error {
	switch k := d.PeekKind(); k {
	case 'n':
		null()
		return d.SkipValue()
	case '[':
	case 0:
		_, err := d.ReadToken()
		return err
	default:
		if err := d.SkipValue(); err != nil {
			return err
		}
		return &TypeError{Got: kindName(k), Want: want}
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	begin()
	var first error
	for d.PeekKind() != ']' {
		if err := each(); err != nil {
			if !errors.As(err, new(*TypeError)) {
				return err
			}
			if first == nil {
				first = err
			}
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	return first
}

// index returns the index of the field named name, or -1.
func index(fields []Field, name string) int {
	for i := range fields {
		if fields[i].name == name {
			return i
		}
	}
	return -1
}

// joinName names a member below the top level with its path.
func joinName(name, below string) string {
	if below == "" {
		return name
	}
	return name + "." + below
}

// Append appends the object fields describes to dst. With an indent it is
// laid out as encoding/json's MarshalIndent(v, prefix, indent) lays it out;
// without, compact. Strings are escaped as encoding/json escapes them: the
// HTML characters, U+2028 and U+2029, and invalid UTF-8 as U+FFFD.
func Append(dst []byte, prefix, indent string, fields ...Field) ([]byte, error) {
	var layout []jsontext.Options
	if indent != "" || prefix != "" {
		layout = []jsontext.Options{jsontext.WithIndentPrefix(prefix), jsontext.WithIndent(indent)}
	}
	out := bytes.NewBuffer(dst)
	e := encoder(out, layout...)
	if err := writeObject(e, fields); err != nil {
		return dst, err
	}
	// The encoder ends each top-level value with a newline.
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}

// writeObject writes one object of fields.
func writeObject(e *jsontext.Encoder, fields []Field) error {
	if err := e.WriteToken(jsontext.BeginObject); err != nil {
		return err
	}
	for _, f := range fields {
		if f.omit && f.empty() {
			continue
		}
		if err := e.WriteToken(jsontext.String(f.name)); err != nil {
			return err
		}
		if err := f.write(e); err != nil {
			return fmt.Errorf("field %q: %w", f.name, err)
		}
	}
	return e.WriteToken(jsontext.EndObject)
}

// Unquote returns the string the JSON string q holds.
func Unquote(q []byte) (string, error) {
	b, err := jsontext.AppendUnquote(nil, q)
	return string(b), err
}

// Each calls each with the name and value of every member of the JSON
// object b, in order; value is the member's JSON text, valid only during
// the call. It stops at the first error, each's or b's.
func Each(b []byte, each func(name string, value []byte) error) error {
	d := decoder(b)
	if err := atObject(d); err != nil {
		return err
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() != '}' {
		t, err := d.ReadToken()
		if err != nil {
			return err
		}
		name := t.String()
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		if err := each(name, v); err != nil {
			return err
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	return atEnd(d)
}

// Compact appends src to dst without its insignificant white space; strings
// and numbers keep their text, as encoding/json's Compact keeps them.
func Compact(dst, src []byte) ([]byte, error) {
	v := jsontext.Value(append(dst[len(dst):len(dst):len(dst)], src...))
	if err := v.Compact(); err != nil {
		return dst, err
	}
	return append(dst, v...), nil
}
