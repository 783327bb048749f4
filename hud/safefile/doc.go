// Package safefile holds the file primitives every writer of the HUD's
// shared files needs: an atomic replace (temp file in the same directory,
// fsync, rename, fsync of the directory) and an exclusive flock with a
// deadline, so no writer can hang Claude Code behind a stuck peer; and the
// one bounded read every reader of a file others wrote uses (regular files
// only, a size limit, an open that never blocks, links refused inside a
// project).
package safefile
