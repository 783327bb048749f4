package text

import "testing"

func TestMarkup(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`Bash: grep -r "<b>" src/ && echo 'done' > /tmp/x`, `Bash: grep -r "&lt;b&gt;" src/ &amp;&amp; echo 'done' &gt; /tmp/x`},
		// Already-escaped text is escaped again: those characters were
		// written, and show as written.
		{"&amp;", "&amp;amp;"},
		{"plain", "plain"},
	} {
		if got := Markup(tc.in); got != tc.want {
			t.Errorf("Markup(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
