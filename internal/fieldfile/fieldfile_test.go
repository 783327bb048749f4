package fieldfile

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name, text string
		want       [][]string
		err        string
	}{
		{"records, comments and blank lines", "# head\n\noldest 2.1.197\n  newest   2.1.330  \n", [][]string{{"oldest", "2.1.197"}, {"newest", "2.1.330"}}, ""},
		{"empty", "# nothing\n", nil, ""},
		{"a field short", "oldest 2.1.197\nnewest\n", nil, `:2: want "NAME RELEASE", got "newest"`},
		{"a field over", "a b c\n", nil, `:1: want "NAME RELEASE"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Read(path, 2, "NAME RELEASE")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing"), 2, "x"); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not-exist", err)
	}
}
