// Package e2e is the HUD's end-to-end suite against the real Claude Code
// CLI: the pinned npm release runs in tmux against a loopback stand-in for
// the Anthropic API (package standin), with hud-hook wired into its
// settings, and each scenario types what a person types and checks that
// `hud status --json` shows the right state within a deadline, recording
// how long it took.
//
// The tests need the CLI, tmux and the built binaries, so they run only
// through scripts/e2e/run.sh (`make e2e`), which installs the CLI into
// scripts/e2e/.cache and sets HUD_E2E_CLAUDE. Under a plain `go test ./...`
// they skip, saying so.
package e2e
