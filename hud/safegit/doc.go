// Package safegit runs git in a repository hud does not trust. Every
// project a person opens in Claude Code may be a repository they just
// cloned or unpacked, and a repository's own configuration can name
// commands that git runs on read-only commands (core.fsmonitor on every
// status, a clean filter on a racily-clean file, a signature verifier on
// log). Run overrides each of those from the command line, which beats
// the repository's own configuration, and gives git a fixed environment,
// so reading a repository's state never runs that repository's code.
//
// What it keeps: the system and the person's global configuration (their
// safe.directory entries, so git's ownership check still refuses a
// repository another user owns, exactly as git itself would).
package safegit
