package hook

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDescribeTool(t *testing.T) {
	longRel := strings.Repeat("d/", 60) + "file.go"
	cases := []struct{ tool, input, want string }{
		{"Bash", `{"command":"npm test\nnpm run lint","description":"run tests"}`, "Bash: npm test"},
		{"Edit", `{"file_path":"/home/dev/proj/src/main.go","old_string":"a"}`, "Edit: src/main.go"},
		{"Write", `{"file_path":"/etc/hosts"}`, "Write: /etc/hosts"},
		// A long path keeps its end: "Read: …" and the last 73 runes.
		{"Read", `{"file_path":"/home/dev/proj/` + longRel + `"}`, "Read: …" + longRel[len(longRel)-73:]},
		{"WebFetch", `{"url":"https://example.com/x","prompt":"summarise"}`, "WebFetch: https://example.com/x"},
		{"Grep", `{"pattern":"func main"}`, "Grep: func main"},
		{"mcp__db__query", `{"sql":"select 1"}`, "mcp__db__query"},
		{"Task", `not json`, "Task"},
		{"Bash", `{"command":""}`, "Bash"},
		{"", `{"command":"x"}`, ""},
	}
	for _, c := range cases {
		got := describeTool(c.tool, []byte(c.input), "/home/dev/proj")
		if got != c.want {
			t.Errorf("describeTool(%s, %s) =\n%q, want\n%q", c.tool, c.input, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > maxWaitingFor {
			t.Errorf("describeTool(%s): %d runes", c.tool, n)
		}
	}
}

func TestErrorText(t *testing.T) {
	cases := []struct{ in, want string }{
		{`"Exit code 2\nls: cannot access"`, "Exit code 2"},
		{`{"type":"overloaded_error","message":"Overloaded"}`, "overloaded_error: Overloaded"},
		{`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, "error: rate_limit_error: slow down"},
		{`{"status":529}`, `{"status":529}`},
		{`null`, ""},
		{``, ""},
		{`42`, "42"},
	}
	for _, c := range cases {
		if got := errorText([]byte(c.in)); got != c.want {
			t.Errorf("errorText(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestToolSubjects: a tool_input's subjects are its string values under
// the exact keys (the last of a repeated key counting); anything else, or
// an input that is not a JSON object, gives none.
func TestToolSubjects(t *testing.T) {
	for _, c := range []struct{ in, command, path string }{
		{`{"command":"npm test","description":"run tests"}`, "npm test", ""},
		{`{"command":"a","command":"b"}`, "b", ""},
		{`{"command":"a","command":5}`, "", ""},
		{`{"command":null,"path":"p"}`, "", "p"},
		{`{"Command":"folded keys are not the same key"}`, "", ""},
		{`{"command":"\u00e9\n\t\"q\""}`, "é\n\t\"q\"", ""},
		{`{"command":"\ud800"}`, "\ufffd", ""},
		{`{"command":"x","nested":{"command":"y"},"list":[1,"2"]}`, "x", ""},
		{`{"command":"x"`, "", ""},
		{`{"command":"x"} trailing`, "", ""},
		{`[]`, "", ""},
		{``, "", ""},
	} {
		got := toolSubjects([]byte(c.in))
		if got[0] != c.command || got[3] != c.path {
			t.Errorf("%s: command %q, path %q; want %q, %q", c.in, got[0], got[3], c.command, c.path)
		}
	}
}
