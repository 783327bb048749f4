package resolver

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
		if got := PathMatch(tt.project, tt.candidate); got != tt.want {
			t.Errorf("PathMatch(%q, %q) = %s, want %s", tt.project, tt.candidate, got, tt.want)
		}
	}
}

func TestNormalizePath(t *testing.T) {
	// The temp dir itself may sit behind a symlink (macOS /var) and, on
	// macOS, is case-folded: start from its normalized form.
	tmp := NormalizePath(t.TempDir())
	real := filepath.Join(tmp, "real", "project")
	must(t, os.MkdirAll(filepath.Join(real, "src"), 0o700))
	link := filepath.Join(tmp, "link")
	must(t, os.Symlink(filepath.Join(tmp, "real"), link))

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
		if got := NormalizePath(tt.in); got != tt.want {
			t.Errorf("NormalizePath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}

	// A relative path is taken from the working directory.
	t.Chdir(link)
	if got := NormalizePath("project/src"); got != filepath.Join(real, "src") {
		t.Errorf("NormalizePath(relative) = %q, want %q", got, filepath.Join(real, "src"))
	}
}

// TestSymlinkedProjectResolves: a record written from the real directory
// answers a query made through a symlink, and the other way round.
func TestSymlinkedProjectResolves(t *testing.T) {
	// The temp dir itself may sit behind a symlink (macOS /var) and, on
	// macOS, is case-folded: start from its normalized form.
	tmp := NormalizePath(t.TempDir())
	real := filepath.Join(tmp, "code", "api")
	must(t, os.MkdirAll(real, 0o700))
	link := filepath.Join(tmp, "api-link")
	must(t, os.Symlink(real, link))

	snap := snapshot([]Lock{lock(NormalizePath(link), pidA, startedA, "s")},
		rec("s", StateWorking, NormalizePath(link+"/"), 0, ofProc(pidA, startedA)))
	for _, q := range []string{real, link, link + "/", filepath.Join(link, ".")} {
		res, ok := ResolveState(snap, NormalizePath(q), now, alive)
		if !ok || res.Match != MatchExact || !res.IsFromLock {
			t.Errorf("query %q: %+v, %v; want an exact lock match", q, res, ok)
		}
	}
}

func FuzzNormalizePath(f *testing.F) {
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
		n := NormalizePath(p)
		if again := NormalizePath(n); again != n {
			t.Fatalf("not idempotent: %q → %q → %q", p, n, again)
		}
		if p == "" {
			if n != "" {
				t.Fatalf("NormalizePath(\"\") = %q", n)
			}
			return
		}
		if !filepath.IsAbs(n) {
			t.Fatalf("NormalizePath(%q) = %q: not absolute", p, n)
		}
		if filepath.Clean(n) != n {
			t.Fatalf("NormalizePath(%q) = %q: not clean", p, n)
		}
		if PathMatch(n, n) != MatchExact || PathMatch("/", n) == NoMatch {
			t.Fatalf("NormalizePath(%q) = %q: does not match itself or sit under /", p, n)
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
	real := NormalizePath(dir)
	p := dir + strings.Repeat("/a", 20000)
	start := time.Now()
	got := NormalizePath(p)
	if took := time.Since(start); took > time.Second {
		t.Errorf("20 000 components took %v", took)
	}
	if want := real + strings.Repeat("/a", 20000); got != want {
		t.Errorf("NormalizePath kept %d bytes, want %d", len(got), len(want))
	}
}
