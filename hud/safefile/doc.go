// Package safefile holds the two file primitives every writer of the HUD's
// shared files needs: an atomic replace (temp file in the same directory,
// fsync, rename, fsync of the directory) and an exclusive flock with a
// deadline, so no writer can hang Claude Code behind a stuck peer.
package safefile
