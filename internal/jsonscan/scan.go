// Package jsonscan reads JSON by hand for the hook's hot path: the hook
// decodes one event and one store record per run, in a fresh process,
// where encoding/json would first build its reflection caches for each
// type, which costs more than the decoding itself.
//
// A Scanner accepts only input that encoding/json decodes to the same
// value, and reports ErrFallback for everything else, valid or not (an
// odd escape, invalid UTF-8, a number out of range, a key that differs
// from a field's name only in case). The caller then hands the input to
// encoding/json, which decides and words the error: the scanner never has
// to be a complete JSON decoder, only an exact one where it answers.
package jsonscan

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrFallback reports input left to encoding/json.
var ErrFallback = errors.New("jsonscan: left to encoding/json")

// maxDepth bounds the nesting of skipped values; deeper input is left to
// encoding/json (which has its own limit).
const maxDepth = 1000

// Scanner reads one JSON text.
type Scanner struct {
	b []byte
	i int
}

// New returns a Scanner at the start of b.
func New(b []byte) *Scanner { return &Scanner{b: b} }

func (s *Scanner) skipSpace() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// take consumes c, after any white space, if it is next.
func (s *Scanner) take(c byte) bool {
	s.skipSpace()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// End reports whether only white space is left.
func (s *Scanner) End() bool {
	s.skipSpace()
	return s.i == len(s.b)
}

// Null consumes null if it is the next value.
func (s *Scanner) Null() bool {
	s.skipSpace()
	return s.literal("null")
}

// Object reads an object, calling field for each key with the scanner at
// its value. field must read the value or return an error.
func (s *Scanner) Object(field func(key string) error) error {
	if !s.take('{') {
		return ErrFallback
	}
	if s.take('}') {
		return nil
	}
	for {
		var key string
		if err := s.String(&key); err != nil {
			return err
		}
		if !s.take(':') {
			return ErrFallback
		}
		if err := field(key); err != nil {
			return err
		}
		if s.take(',') {
			continue
		}
		if s.take('}') {
			return nil
		}
		return ErrFallback
	}
}

// Array reads an array, calling elem with the scanner at each element.
func (s *Scanner) Array(elem func() error) error {
	if !s.take('[') {
		return ErrFallback
	}
	if s.take(']') {
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if s.take(',') {
			continue
		}
		if s.take(']') {
			return nil
		}
		return ErrFallback
	}
}

// Unknown skips the value of a key the caller has no field for, as
// encoding/json ignores it, unless the key could name one of fields:
// encoding/json matches keys to field names ignoring case (and folding a
// few non-ASCII letters), so those are left to it.
func (s *Scanner) Unknown(key string, fields []string) error {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			return ErrFallback
		}
	}
	for _, f := range fields {
		if strings.EqualFold(key, f) {
			return ErrFallback
		}
	}
	_, err := s.Value()
	return err
}

// String reads a string into v (or only checks it, v nil). Escapes are
// undone as encoding/json undoes them; a lone surrogate escape, a raw
// control character or invalid UTF-8 (which encoding/json replaces or
// rejects) is left to it.
func (s *Scanner) String(v *string) error {
	if !s.take('"') {
		return ErrFallback
	}
	start := s.i
	var buf []byte // nil until an escape is seen
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			if v != nil {
				if buf == nil {
					*v = string(s.b[start:s.i])
				} else {
					*v = string(append(buf, s.b[start:s.i]...))
				}
			}
			s.i++
			return nil
		case c < 0x20:
			return ErrFallback
		case c == '\\':
			buf = append(buf, s.b[start:s.i]...)
			var err error
			if buf, err = s.escape(buf); err != nil {
				return err
			}
			start = s.i
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				return ErrFallback
			}
			s.i += size
		}
	}
	return ErrFallback
}

// escape undoes the escape at s.i onto buf.
func (s *Scanner) escape(buf []byte) ([]byte, error) {
	if s.i+1 >= len(s.b) {
		return nil, ErrFallback
	}
	e := s.b[s.i+1]
	s.i += 2
	switch e {
	case '"', '\\', '/':
		return append(buf, e), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
		r, ok := s.hex4()
		if !ok {
			return nil, ErrFallback
		}
		if utf16.IsSurrogate(r) {
			// Only a pair decodes to one character; a lone half is
			// replaced by encoding/json, left to it.
			if s.i+2 > len(s.b) || s.b[s.i] != '\\' || s.b[s.i+1] != 'u' {
				return nil, ErrFallback
			}
			s.i += 2
			r2, ok := s.hex4()
			if r = utf16.DecodeRune(r, r2); !ok || r == utf8.RuneError {
				return nil, ErrFallback
			}
		}
		return utf8.AppendRune(buf, r), nil
	}
	return nil, ErrFallback
}

// hex4 reads the four hex digits of a \u escape.
func (s *Scanner) hex4() (rune, bool) {
	if s.i+4 > len(s.b) {
		return 0, false
	}
	var r rune
	for _, c := range s.b[s.i : s.i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	s.i += 4
	return r, true
}

// Bool reads true or false.
func (s *Scanner) Bool(v *bool) error {
	s.skipSpace()
	switch {
	case s.literal("true"):
		*v = true
	case s.literal("false"):
		*v = false
	default:
		return ErrFallback
	}
	return nil
}

// Int reads an integer that fits in bits bits: digits with an optional
// minus and no leading zero, nothing encoding/json would read otherwise.
func (s *Scanner) Int(bits int) (int64, error) {
	s.skipSpace()
	start := s.i
	if !s.number() || strings.ContainsAny(string(s.b[start:s.i]), ".eE") {
		return 0, ErrFallback
	}
	n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, bits)
	if err != nil {
		return 0, ErrFallback
	}
	return n, nil
}

// Strings reads an array of strings; [] is an empty slice, not nil, as
// encoding/json makes it.
func (s *Scanner) Strings(v *[]string) error {
	list := []string{}
	err := s.Array(func() error {
		var e string
		err := s.String(&e)
		list = append(list, e)
		return err
	})
	if err != nil {
		return err
	}
	*v = list
	return nil
}

// Value reads any value and returns its text, as json.RawMessage holds it.
func (s *Scanner) Value() ([]byte, error) {
	s.skipSpace()
	start := s.i
	if err := s.skip(0); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}

func (s *Scanner) skip(depth int) error {
	if depth > maxDepth {
		return ErrFallback
	}
	s.skipSpace()
	if s.i == len(s.b) {
		return ErrFallback
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.Object(func(string) error { return s.skip(depth + 1) })
	case c == '[':
		return s.Array(func() error { return s.skip(depth + 1) })
	case c == '"':
		return s.String(nil)
	case c == '-' || '0' <= c && c <= '9':
		if !s.number() {
			return ErrFallback
		}
		return nil
	case s.literal("true"), s.literal("false"), s.literal("null"):
		return nil
	}
	return ErrFallback
}

// number consumes a number as JSON spells it:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *Scanner) number() bool {
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.digits() == 0:
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *Scanner) digits() int {
	start := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}

// literal consumes word if it is next.
func (s *Scanner) literal(word string) bool {
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}
