package paths

import (
	"os"
	"path/filepath"
	"strings"
)

// Normalize is the one path normalizer shared by the hook (when it
// records cwd and names lock directories) and every reader (when it matches
// a project path). It makes the path absolute and clean, drops trailing
// slashes, resolves symlinks in the longest prefix that exists, and folds
// case where the file system usually does (macOS).
//
// It never fails: a path that cannot be resolved is still cleaned, so two
// spellings of a missing directory still compare equal.
func Normalize(p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
	}
	p = filepath.Clean(p)
	p = resolveExistingPrefix(p)
	return foldCase(p)
}

// NormalizeLexical cleans p without touching the file system: absolute
// paths stay absolute, "." and ".." are resolved, trailing slashes go.
// It is what Normalize does short of symlinks, for pure code and tests.
func NormalizeLexical(p string) string {
	if p == "" {
		return ""
	}
	return foldCase(filepath.Clean(p))
}

// resolveExistingPrefix resolves symlinks in the longest existing prefix of
// the clean absolute path p and re-appends the rest, so a project whose
// directory was removed still normalizes the same way it did while it
// existed, as long as its parent did not move.
//
// The prefix is found by bisection over the component boundaries (a
// prefix of an existing path exists), and resolved once: a cwd of ten
// thousand components, which an event may claim, costs a dozen stats
// rather than ten thousand symlink walks.
func resolveExistingPrefix(p string) string {
	end := existingPrefix(p)
	for end > 0 {
		resolved, err := filepath.EvalSymlinks(p[:end])
		if err != nil { // raced with a removal: one level up
			if end <= 1 {
				break
			}
			end = max(strings.LastIndexByte(p[:end], filepath.Separator), 1)
			continue
		}
		if rest := p[end:]; rest != "" {
			return filepath.Join(resolved, rest)
		}
		return resolved
	}
	return p
}

// existingPrefix returns the length of the longest prefix of the clean
// absolute path p, cut at a separator, that exists (0 when not even the
// root does). It bisects over the component boundaries: a prefix of an
// existing path exists.
func existingPrefix(p string) int {
	var ends []int // p[:ends[i]] is the prefix of i+1 components
	for i := 1; i < len(p); i++ {
		if p[i] == filepath.Separator {
			ends = append(ends, i)
		}
	}
	ends = append(ends, len(p))
	lo, hi := 0, len(ends) // lo components are known to exist
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, err := os.Stat(p[:ends[mid-1]]); err == nil {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return 0
	}
	return ends[lo-1]
}

// Match says how a candidate path (a record's cwd, a lock's path) relates to
// a queried project path.
type Match int

// Matches, best first. NoMatch is the zero value.
const (
	NoMatch Match = iota
	MatchParent
	MatchChild
	MatchExact
)

func (m Match) String() string {
	switch m {
	case MatchExact:
		return "exact"
	case MatchChild:
		return "child"
	case MatchParent:
		return "parent"
	}
	return "none"
}

// Compare compares two normalized paths: candidate equal to project is
// exact, inside it is a child, and an ancestor of it is a parent ("/" is
// everyone's parent). Both must already be normalized.
func Compare(project, candidate string) Match {
	switch {
	case project == "" || candidate == "":
		return NoMatch
	case candidate == project:
		return MatchExact
	case isUnder(candidate, project):
		return MatchChild
	case isUnder(project, candidate):
		return MatchParent
	}
	return NoMatch
}

// isUnder reports whether p is strictly inside dir.
func isUnder(p, dir string) bool {
	if dir == string(filepath.Separator) {
		return p != dir && strings.HasPrefix(p, dir)
	}
	return len(p) > len(dir) && p[len(dir)] == filepath.Separator && strings.HasPrefix(p, dir)
}

// ProjectRoot returns the directory that names the project cwd belongs to:
// claudeProjectDir when Claude Code set CLAUDE_PROJECT_DIR, else the nearest
// ancestor of cwd (itself included) that holds a .git entry, else cwd. All
// results are normalized.
func ProjectRoot(cwd, claudeProjectDir string) string {
	if claudeProjectDir != "" {
		return Normalize(claudeProjectDir)
	}
	cwd = Normalize(cwd)
	// Only a directory that exists can hold .git: the walk up starts at
	// the longest existing prefix, so a cwd of ten thousand missing
	// components costs what a short one does.
	start := cwd
	if end := existingPrefix(cwd); end > 0 {
		start = cwd[:end]
	}
	for dir := start; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return cwd
		}
		dir = parent
	}
}
