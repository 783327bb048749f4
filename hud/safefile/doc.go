// Package safefile holds the file primitives every writer of the HUD's
// shared files needs: an atomic replace (a temp file in the same
// directory, renamed over the old one; durable with fsyncs, or not, for
// state that describes live processes), an exclusive flock with a
// deadline, so no writer can hang Claude Code behind a stuck peer, and
// the removal of temp files a killed writer left behind. None of them
// follows a symbolic link at the name it writes.
package safefile
