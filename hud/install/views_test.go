package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// writeTemp writes body to a new file and returns its path.
func writeTemp(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOurHandlers: hud's handlers are found where they sit, in the
// file's order; the person's, and anything not shaped as Claude Code's
// hooks, are passed over.
func TestOurHandlers(t *testing.T) {
	cases := []struct {
		name, body string
		want       []Handler
	}{
		{"none", `{}`, nil},
		{"hooks not an object", `{"hooks": []}`, nil},
		{"root not an object", `[]`, nil},
		{"ours beside the person's", `{"hooks": {
			"Stop": [{"hooks": [{"command": "notify-send"}]}, {"hooks": [{"command": "x"}, {"command": "/b/hud-hook codex"}]}],
			"SessionStart": [{"hooks": [{"command": "'/a b/hud-hook' codex"}]}],
			"Bad": {"hooks": []},
			"Odd": [1, {"hooks": 2}, {"hooks": [3, {"command": "/b/hud-hook"}]}]}}`,
			[]Handler{{"Stop", 1, 1}, {"SessionStart", 0, 0}, {"Odd", 2, 1}}},
	}
	for _, c := range cases {
		got, err := OurHandlers(writeTemp(t, c.body))
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if _, err := OurHandlers(filepath.Join(t.TempDir(), "none.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
	var se *SyntaxError
	if _, err := OurHandlers(writeTemp(t, `{"hooks": `)); !errors.As(err, &se) {
		t.Errorf("broken JSON: %v, want a SyntaxError", err)
	}
}

// TestJSONScalar: a scalar is given as written; anything else on the way
// is "" with no error, and only a file that cannot be read or parsed is
// an error.
func TestJSONScalar(t *testing.T) {
	cases := []struct {
		body string
		keys []string
		want string
		err  bool
	}{
		{`{"hooksConfig": {"enabled": false}}`, []string{"hooksConfig", "enabled"}, "false", false},
		{`{"a": {"b": "x y"}}`, []string{"a", "b"}, `"x y"`, false},
		{`{"a": {"b": {"c": 1}}}`, []string{"a", "b"}, "", false},
		{`{"a": [1]}`, []string{"a", "b"}, "", false},
		{`{"a": 1}`, []string{"a", "b"}, "", false},
		{`{}`, []string{"a"}, "", false},
		{`[]`, []string{"a"}, "", false},
		{`{"a": `, []string{"a"}, "", true},
	}
	for _, c := range cases {
		got, err := JSONScalar(writeTemp(t, c.body), c.keys...)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("%s %v: %q, %v; want %q (error %v)", c.body, c.keys, got, err, c.want, c.err)
		}
	}
	if got, err := JSONScalar(filepath.Join(t.TempDir(), "none.json"), "a"); got != "" || err != nil {
		t.Errorf("a missing file: %q, %v", got, err)
	}
}
