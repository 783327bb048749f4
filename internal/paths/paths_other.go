//go:build !darwin

package paths

// foldCase is the identity where file systems are case-sensitive.
func foldCase(p string) string { return p }
