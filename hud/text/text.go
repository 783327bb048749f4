package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ellipsis marks text that was cut.
const Ellipsis = "…"

// Line puts s on one line for a person: escape sequences and control
// characters are removed, every run of white space (line breaks included)
// becomes one space, the ends are trimmed, and the result is cut to at
// most max runes (no limit when max <= 0).
func Line(s string, max int) string {
	s = Strip(s)
	if strings.ContainsFunc(s, unicode.IsSpace) {
		s = strings.Join(strings.Fields(s), " ")
	}
	if max > 0 {
		s = Truncate(s, max)
	}
	return s
}

// FirstLine returns the first line of s that holds anything but white
// space, stripped, trimmed and cut to at most max runes: a prompt pasted
// with a leading blank line still names its task.
func FirstLine(s string, max int) string {
	for line := range strings.Lines(s) {
		if clean := strings.TrimSpace(Strip(line)); clean != "" {
			return Truncate(clean, max)
		}
	}
	return ""
}

// Strip removes terminal escape sequences (CSI, OSC and the other string
// sequences, whole), control characters, bidirectional overrides and
// invalid UTF-8; a tab becomes a space and a line break stays, so the
// caller decides about lines. Text with nothing to remove is returned as
// it is, without a copy.
func Strip(s string) string {
	if !needsStrip(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r == '\n':
			b.WriteByte('\n')
		case r == utf8.RuneError && size == 1, unicode.IsControl(r), isBidi(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsStrip(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unicode.IsControl(r) || isBidi(r) {
			return true
		}
		i += size
	}
	return false
}

// skipEscape returns the index just past the escape sequence starting at
// s[i] (an ESC). CSI (ESC [) runs to a final byte in @..~; OSC, DCS, SOS,
// PM and APC (ESC ] P X ^ _) run to BEL or ST (ESC \); any other ESC takes
// the one character after it. A sequence cut off by the end of s takes the
// rest: half an escape is still not text.
func skipEscape(s string, i int) int {
	i++ // ESC
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		for i++; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return i
	case ']', 'P', 'X', '^', '_':
		for i++; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return i
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return i + size
}

// isBidi reports the invisible characters that reorder text (U+202A–202E,
// U+2066–2069, U+200E–200F, U+061C): shown in a terminal they can make a
// command or a file name read as something else.
func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// Truncate cuts s to at most n runes, marking a cut with Ellipsis (which
// counts towards n); white space just before the cut goes.
func Truncate(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return Ellipsis
	}
	count := 0
	for i := range s {
		if count == n-1 {
			return strings.TrimRightFunc(s[:i], unicode.IsSpace) + Ellipsis
		}
		count++
	}
	return s
}

// Head returns the first n runes of s, unmarked: for formats that promise
// "the first n characters".
func Head(s string, n int) string {
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

// TruncateLeft keeps the end of s (the part of a path that names the
// file), cutting the start to at most n runes.
func TruncateLeft(s string, n int) string {
	count := utf8.RuneCountInString(s)
	if count <= n {
		return s
	}
	if n <= 1 {
		return Ellipsis
	}
	skip := count - (n - 1)
	for i := range s {
		if skip == 0 {
			return Ellipsis + s[i:]
		}
		skip--
	}
	return Ellipsis
}
