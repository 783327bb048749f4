package paths

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPathMatch(t *testing.T) {
	tests := []struct {
		project, candidate string
		want               Match
	}{
		// The path table, querying /project.
		{"/project", "/project", MatchExact},
		{"/project", "/project/src", MatchChild},
		{"/project", "/", MatchParent},
		// More.
		{"/project", "/project/src/deep/er", MatchChild},
		{"/project/src", "/project", MatchParent},
		{"/project", "/project-old", NoMatch},
		{"/project", "/projec", NoMatch},
		{"/project", "/other", NoMatch},
		{"/", "/", MatchExact},
		{"/", "/anything", MatchChild},
		{"/", "/a/b", MatchChild},
		{"/project", "", NoMatch},
		{"", "/project", NoMatch},
	}
	for _, tt := range tests {
		if got := Compare(tt.project, tt.candidate); got != tt.want {
			t.Errorf("Compare(%q, %q) = %s, want %s", tt.project, tt.candidate, got, tt.want)
		}
	}
}

func TestNormalizePath(t *testing.T) {
	// The temp dir itself may sit behind a symlink (macOS /var) and, on
	// macOS, is case-folded: start from its normalized form.
	tmp := Normalize(t.TempDir())
	real := filepath.Join(tmp, "real", "project")
	if err := os.MkdirAll(filepath.Join(real, "src"), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(filepath.Join(tmp, "real"), link); err != nil {
		t.Fatal(err)
	}

	tests := []struct{ in, want string }{
		{"", ""},
		{"/", "/"},
		{"//", "/"},
		{real, real},
		{real + "/", real},
		{real + "///", real},
		{real + "/src/..", real},
		{real + "/./src/", filepath.Join(real, "src")},
		// Through a symlink: the real path.
		{filepath.Join(link, "project"), real},
		{filepath.Join(link, "project") + "/", real},
		{filepath.Join(link, "project", "src"), filepath.Join(real, "src")},
		// A missing directory under a symlink: the existing prefix is
		// resolved, the rest kept, so it matches how it was recorded.
		{filepath.Join(link, "project", "gone", "deeper"), filepath.Join(real, "gone", "deeper")},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}

	// A relative path is taken from the working directory.
	t.Chdir(link)
	if got := Normalize("project/src"); got != filepath.Join(real, "src") {
		t.Errorf("Normalize(relative) = %q, want %q", got, filepath.Join(real, "src"))
	}
}

// TestSymlinkedProjectResolves: a record written from the real directory
// answers a query made through a symlink, and the other way round.
func FuzzNormalize(f *testing.F) {
	tmp := f.TempDir()
	_ = os.MkdirAll(filepath.Join(tmp, "a", "b"), 0o700)
	_ = os.Symlink(filepath.Join(tmp, "a"), filepath.Join(tmp, "l"))
	_ = os.Symlink("loop", filepath.Join(tmp, "loop"))
	for _, seed := range []string{
		"", "/", "//", "/project", "/project/", "project", ".", "..", "./a/../b",
		"/a/./b/../c//", "/../..", tmp, tmp + "/l/b/", tmp + "/l/../l/b/x/y",
		tmp + "/loop/x", "/tmp/\x00/x", "/ünïcode/dir", "/a/b\\c",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		n := Normalize(p)
		if again := Normalize(n); again != n {
			t.Fatalf("not idempotent: %q → %q → %q", p, n, again)
		}
		if p == "" {
			if n != "" {
				t.Fatalf("Normalize(\"\") = %q", n)
			}
			return
		}
		if !filepath.IsAbs(n) {
			t.Fatalf("Normalize(%q) = %q: not absolute", p, n)
		}
		if filepath.Clean(n) != n {
			t.Fatalf("Normalize(%q) = %q: not clean", p, n)
		}
		if Compare(n, n) != MatchExact || Compare("/", n) == NoMatch {
			t.Fatalf("Normalize(%q) = %q: does not match itself or sit under /", p, n)
		}
		if filepath.IsAbs(p) {
			lex := NormalizeLexical(p)
			if filepath.Clean(lex) != lex || NormalizeLexical(lex) != lex {
				t.Fatalf("NormalizeLexical(%q) = %q: not clean or not idempotent", p, lex)
			}
		}
	})
}

// TestNormalizeLongPath: an event may claim any cwd; a very deep one must
// cost about what a short one does, not time quadratic in the number of
// components.
func TestNormalizeLongPath(t *testing.T) {
	dir := t.TempDir()
	real := Normalize(dir)
	p := dir + strings.Repeat("/a", 20000)
	start := time.Now()
	got := Normalize(p)
	if took := time.Since(start); took > time.Second {
		t.Errorf("20 000 components took %v", took)
	}
	if want := real + strings.Repeat("/a", 20000); got != want {
		t.Errorf("Normalize kept %d bytes, want %d", len(got), len(want))
	}
}
