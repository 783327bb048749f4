// Package text makes text from elsewhere fit to show a person or to hand
// to Claude: a prompt, a commit subject, a todo, a file name, a log line.
// Any of these can come from a repository the person has not read, so
// everything hud prints to a terminal, puts in a menu or a notification,
// or adds to Claude's context goes through Line or FirstLine first: no
// terminal escape sequence (which could retitle the terminal, write to the
// clipboard or hide text), no control character, no bidirectional
// override, valid UTF-8, one line, a bounded number of runes.
package text
