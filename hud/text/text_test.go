package text

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestStrip(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello", "hello"},
		{"csi colour", "\x1b[1;31mred\x1b[0m text", "red text"},
		{"osc title with BEL", "a\x1b]0;pwned\x07b", "ab"},
		{"osc 52 clipboard with ST", "x\x1b]52;c;ZWNobyBoaQ==\x1b\\y", "xy"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"two-byte escape", "a\x1bcb", "ab"},
		{"cut-off escape", "a\x1b]0;never ends", "a"},
		{"lone esc at end", "a\x1b", "a"},
		{"bell and nul", "bell\a and \x00nul", "bell and nul"},
		{"tab", "tab\there", "tab here"},
		{"newline kept", "one\ntwo", "one\ntwo"},
		{"carriage return", "over\rwrite", "overwrite"},
		{"C1 CSI", "a\u009b31mb", "a31mb"},
		{"bidi override", "file\u202eexe.txt", "fileexe.txt"},
		{"invalid utf8", "bad \xff utf8", "bad  utf8"},
		{"DEL", "a\x7fb", "ab"},
		{"unicode kept", "日本 ✓ café", "日本 ✓ café"},
	}
	for _, c := range cases {
		if got := Strip(c.in); got != c.want {
			t.Errorf("%s: Strip(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"fix the\nbug  now", 0, "fix the bug now"},
		{"  \x1b[2Jclear\r\n", 0, "clear"},
		{"abcdef", 4, "abc…"},
		{"日本語のテキスト", 3, "日本…"},
		{"", 10, ""},
	}
	for _, c := range cases {
		if got := Line(c.in, c.max); got != c.want {
			t.Errorf("Line(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestFirstLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"hello", "hello"},
		{"  first\nsecond", "first"},
		{"\n\n  \nthird", "third"},
		{"\x1b[1;31mred\x1b[0m text", "red text"},
		{"crlf\r\nnext", "crlf"},
		{"\x1b]0;x\x07\nreal", "real"},
		{"", ""},
		{"\n \n", ""},
	}
	for _, c := range cases {
		if got := FirstLine(c.in, 120); got != c.want {
			t.Errorf("FirstLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := FirstLine(strings.Repeat("日本", 100), 120)
	if utf8.RuneCountInString(long) != 120 || !strings.HasSuffix(long, Ellipsis) {
		t.Errorf("long line: %d runes %q", utf8.RuneCountInString(long), long)
	}
}

func TestTruncate(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"abcd", 1, "…"},
		{"日本語", 2, "日…"},
	}
	for _, c := range cases {
		if got := Truncate(c.in, c.n); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
		if got := TruncateLeft(c.in, c.n); utf8.RuneCountInString(got) > c.n {
			t.Errorf("TruncateLeft(%q, %d) = %q: too long", c.in, c.n, got)
		}
	}
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{{"héllo", 2, "hé"}, {"abc", 5, "abc"}, {"", 3, ""}, {"日本語", 1, "日"}} {
		if got := Head(c.in, c.n); got != c.want {
			t.Errorf("Head(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
	if got := TruncateLeft("/a/b/file.go", 8); got != "…file.go" {
		t.Errorf("TruncateLeft = %q", got)
	}
}

// FuzzLine: whatever comes in, what comes out is one line of valid UTF-8
// with no control character and no ESC, within the limit.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"x", "\x1b]0;t\x07", "\x1b[", "a\nb", "\xff\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Line(s, 50)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > 50 {
			t.Fatalf("Line(%q) = %q", s, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) || isBidi(r) {
				t.Fatalf("Line(%q) = %q keeps %U", s, got, r)
			}
		}
	})
}
