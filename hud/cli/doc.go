// Package cli is the `hud` command line: it parses arguments, dispatches to
// a command, and turns errors into short messages with a hint. It never
// reads globals: everything comes through Env, so every command runs in
// tests against a temporary home directory.
package cli
