package lockholder

import (
	"slices"
	"strings"
	"testing"
)

func TestJobLines(t *testing.T) {
	b, err := EncodeLines("kind 1", "/a b", "", "x")
	if err != nil || string(b) != "kind 1\n/a b\n\nx\n" {
		t.Fatalf("EncodeLines = %q, %v", b, err)
	}
	if f, err := DecodeLines(b, "kind 1", 3); err != nil || !slices.Equal(f, []string{"/a b", "", "x"}) {
		t.Errorf("DecodeLines = %q, %v", f, err)
	}
	for _, fields := range [][]string{{"a\nb"}, {"a\x00b"}, {strings.Repeat("x", MaxJob)}} {
		if b, err := EncodeLines("kind 1", fields...); err == nil {
			t.Errorf("EncodeLines(%.20q) = %.20q, want an error", fields, b)
		}
	}
	for name, job := range map[string]string{
		"another version":    "kind 10\na\nb\nc\n",
		"another kind":       "other 1\na\nb\nc\n",
		"a field less":       "kind 1\na\nb\n",
		"a field more":       "kind 1\na\nb\nc\nd\n",
		"the last not ended": "kind 1\na\nb\nc",
		"a NUL":              "kind 1\na\nb\x00\nc\n",
		"over MaxJob":        "kind 1\na\nb\n" + strings.Repeat("c", MaxJob) + "\n",
	} {
		if f, err := DecodeLines([]byte(job), "kind 1", 3); err == nil {
			t.Errorf("%s: DecodeLines = %q, want an error", name, f)
		}
	}
	if HasHeader([]byte("kind 10\n"), "kind 1") || !HasHeader([]byte("kind 1\n"), "kind 1") {
		t.Error("HasHeader takes the header's whole first line, and only it")
	}
}
