package activity

import (
	"slices"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/lockholder"
)

func TestJobLines(t *testing.T) {
	b, err := encodeLines("kind 1", "/a b", "", "x")
	if err != nil || string(b) != "kind 1\n/a b\n\nx\n" {
		t.Fatalf("encodeLines = %q, %v", b, err)
	}
	if f, err := decodeLines(b, "kind 1", 3); err != nil || !slices.Equal(f, []string{"/a b", "", "x"}) {
		t.Errorf("decodeLines = %q, %v", f, err)
	}
	for _, fields := range [][]string{{"a\nb"}, {"a\x00b"}, {strings.Repeat("x", lockholder.MaxJob)}} {
		if b, err := encodeLines("kind 1", fields...); err == nil {
			t.Errorf("encodeLines(%.20q) = %.20q, want an error", fields, b)
		}
	}
	for name, job := range map[string]string{
		"another version":        "kind 10\na\nb\nc\n",
		"another kind":           "other 1\na\nb\nc\n",
		"a field less":           "kind 1\na\nb\n",
		"a field more":           "kind 1\na\nb\nc\nd\n",
		"the last not ended":     "kind 1\na\nb\nc",
		"a NUL":                  "kind 1\na\nb\x00\nc\n",
		"over lockholder.MaxJob": "kind 1\na\nb\n" + strings.Repeat("c", lockholder.MaxJob) + "\n",
	} {
		if f, err := decodeLines([]byte(job), "kind 1", 3); err == nil {
			t.Errorf("%s: decodeLines = %q, want an error", name, f)
		}
	}
}
