package paths

import "strings"

// foldCase lower-cases paths on macOS, whose default file system (APFS,
// case-insensitive) treats /Users/me/API and /Users/me/api as one directory.
func foldCase(p string) string { return strings.ToLower(p) }
