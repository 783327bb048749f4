package resolver

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonScanner reads the few JSON forms a record holds (objects, strings,
// integers, arrays of strings, null timestamps) for DecodeRecord. It
// accepts only input that encoding/json decodes to the same value and
// reports errFallback for everything else, valid or not, so that
// encoding/json decides those: it never has to be a full JSON parser.
type jsonScanner struct {
	b []byte
	i int
}

func (s *jsonScanner) skipSpace() {
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
func (s *jsonScanner) take(c byte) bool {
	s.skipSpace()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (s *jsonScanner) end() bool {
	s.skipSpace()
	return s.i == len(s.b)
}

// object reads an object, calling field for each key with the scanner at
// its value.
func (s *jsonScanner) object(field func(key string) error) error {
	if !s.take('{') {
		return errFallback
	}
	if s.take('}') {
		return nil
	}
	for {
		var key string
		if err := s.str(&key); err != nil {
			return err
		}
		if !s.take(':') {
			return errFallback
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
		return errFallback
	}
}

// str reads a string into v. Escapes are undone as encoding/json undoes
// them; a surrogate escape, a raw control character or invalid UTF-8
// (which encoding/json replaces or rejects) is left to it.
func (s *jsonScanner) str(v *string) error {
	if !s.take('"') {
		return errFallback
	}
	start := s.i
	var buf []byte // nil until an escape is seen
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			if buf == nil {
				*v = string(s.b[start:s.i])
			} else {
				*v = string(append(buf, s.b[start:s.i]...))
			}
			s.i++
			return nil
		case c < 0x20:
			return errFallback
		case c == '\\':
			buf = append(buf, s.b[start:s.i]...)
			if s.i+1 >= len(s.b) {
				return errFallback
			}
			e := s.b[s.i+1]
			s.i += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				if s.i+4 > len(s.b) {
					return errFallback
				}
				r, err := strconv.ParseUint(string(s.b[s.i:s.i+4]), 16, 16)
				if err != nil || utf16.IsSurrogate(rune(r)) {
					return errFallback
				}
				buf = utf8.AppendRune(buf, rune(r))
				s.i += 4
			default:
				return errFallback
			}
			start = s.i
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				return errFallback
			}
			s.i += size
		}
	}
	return errFallback
}

// timestamp reads a Timestamp: its own UnmarshalJSON on the raw string
// or null, as encoding/json calls it.
func (s *jsonScanner) timestamp(v *Timestamp) error {
	s.skipSpace()
	start := s.i
	if s.literal("null") {
		return v.UnmarshalJSON(s.b[start:s.i])
	}
	var text string
	if err := s.str(&text); err != nil {
		return err
	}
	if v.UnmarshalJSON(s.b[start:s.i]) != nil {
		return errFallback
	}
	return nil
}

// literal consumes word if it is next.
func (s *jsonScanner) literal(word string) bool {
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// integer reads an integer of bits bits: digits with an optional minus
// and no leading zero, nothing encoding/json would read differently.
func (s *jsonScanner) integer(bits int) (int64, error) {
	s.skipSpace()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	switch {
	case s.i == digits, s.b[digits] == '0' && s.i-digits > 1:
		return 0, errFallback
	case s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E'):
		return 0, errFallback
	}
	n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, bits)
	if err != nil {
		return 0, errFallback
	}
	return n, nil
}

func (s *jsonScanner) int(v *int) error {
	n, err := s.integer(strconv.IntSize)
	*v = int(n)
	return err
}

func (s *jsonScanner) int64(v *int64) error {
	n, err := s.integer(64)
	*v = n
	return err
}

// strList reads an array of strings; [] is an empty slice, not nil, as
// encoding/json makes it.
func (s *jsonScanner) strList(v *[]string) error {
	if !s.take('[') {
		return errFallback
	}
	list := []string{}
	if !s.take(']') {
		for {
			var e string
			if err := s.str(&e); err != nil {
				return err
			}
			list = append(list, e)
			if s.take(',') {
				continue
			}
			if s.take(']') {
				break
			}
			return errFallback
		}
	}
	*v = list
	return nil
}
