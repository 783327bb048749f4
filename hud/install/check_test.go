package install

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestHooksProblem(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // path → its problem
		want  string
	}{
		{"none anywhere", map[string]string{"/a": NotInstalled, "/b": NotInstalled}, NotInstalled},
		{"one config dir wired is enough", map[string]string{"/a": NotInstalled, "/b": ""}, ""},
		{"a broken install is named", map[string]string{"/a": NotInstalled, "/b": "Hook binary missing: /x"}, "Hook binary missing: /x"},
		{"broken one, good other", map[string]string{"/a": "Hook binary missing: /x", "/b": ""}, ""},
		{"the first broken one is named", map[string]string{"/a": "Hooks incomplete (2 events missing)", "/b": "Hook binary missing: /x"}, "Hooks incomplete (2 events missing)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HooksProblem([]string{"/a", "/b"}, func(p string) string { return tt.files[p] })
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// The tray asks the Checker on every redraw: a file is inspected again
// only when it changed, appeared or went away, and a file no longer
// listed is forgotten.
func TestChecker(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	problems := map[string]string{a: NotInstalled, b: NotInstalled}
	inspected := map[string]int{}
	paths := []string{a, b}
	c := &Checker{
		Paths: func() []string { return paths },
		ProblemOf: func(p string) string {
			inspected[p]++
			return problems[p]
		},
	}
	write := func(path, body string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write(a, "{}", t0)

	steps := []struct {
		name          string
		do            func()
		want          string
		wantInspected map[string]int // total inspections so far
	}{
		{"first ask inspects every file", func() {}, NotInstalled, map[string]int{a: 1, b: 1}},
		{"nothing changed: nothing inspected", func() {}, NotInstalled, map[string]int{a: 1, b: 1}},
		{"a rewritten (new mtime) is inspected again", func() {
			problems[a] = ""
			write(a, "{}", t0.Add(time.Second))
		}, "", map[string]int{a: 2, b: 1}},
		{"a has the hooks: b is not looked at", func() {
			problems[b] = "Hook binary missing: /x"
			write(b, "{ }", t0)
		}, "", map[string]int{a: 2, b: 1}},
		{"a grows at the same mtime", func() {
			problems[a] = "Hooks incomplete (1 events missing)"
			write(a, "{  }", t0.Add(time.Second))
		}, "Hooks incomplete (1 events missing)", map[string]int{a: 3, b: 2}},
		{"a goes away", func() {
			problems[a] = NotInstalled
			os.Remove(a)
		}, "Hook binary missing: /x", map[string]int{a: 4, b: 2}},
		{"b unlisted, then listed again: inspected afresh", func() {
			paths = []string{a}
			c.Problem()
			paths = []string{a, b}
		}, "Hook binary missing: /x", map[string]int{a: 4, b: 3}},
	}
	for _, st := range steps {
		st.do()
		if got := c.Problem(); got != st.want {
			t.Errorf("%s: Problem() = %q, want %q", st.name, got, st.want)
		}
		for p, n := range st.wantInspected {
			if inspected[p] != n {
				t.Errorf("%s: %s inspected %d times, want %d", st.name, filepath.Base(p), inspected[p], n)
			}
		}
	}
}
