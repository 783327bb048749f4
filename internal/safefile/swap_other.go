//go:build !linux

package safefile

import "os"

// SwapIn puts the file tmp in place of path, atomically for readers: a
// rename (see the Linux version for why it is a function of its own).
func SwapIn(tmp, path string) error { return os.Rename(tmp, path) }
