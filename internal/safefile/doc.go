// Package safefile holds the file primitives every writer of the HUD's
// shared files needs: an atomic replace (temp file in the same directory,
// renamed over the old file; durable with fsyncs of the file and of the
// directory, or not, for state that describes live processes), an
// exclusive flock with a deadline, so no writer can hang Claude Code
// behind a stuck peer, and the removal of temp files a killed writer left
// behind; and the one bounded read every reader of a file others wrote
// uses (regular files only, a size limit, an open that never blocks,
// links refused inside a project). None of them writes through a link.
package safefile
