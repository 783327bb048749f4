// Package e2e is the HUD's end-to-end suite against the real Claude Code
// CLI: the pinned npm release runs in tmux against a loopback stand-in for
// the Anthropic API (package standin), with hud-hook wired in by
// `hud install`, and each scenario types what a person types and checks
// that `hud status --json` shows the right state within a deadline,
// recording how long it took.
//
// Each scenario has its own temp HOME (onboarded and trusted, so the CLI
// goes straight to its prompt) and checks the CLI's side of every step
// before the HUD's: the dialog on screen, the turn over, Claude's own
// ~/.claude/sessions/<pid>.json. A failed step prints the state expected,
// the state seen, what Claude itself said, the hook's debug log, the store,
// the locks and the screen.
//
// The tests need the CLI, tmux and the built binaries, so they run through
// scripts/e2e/run.sh (`make e2e`), which installs the CLI into
// scripts/e2e/.cache and sets HUD_E2E_CLAUDE; under a plain `go test ./...`
// they skip, saying so. One scenario: E2E_RUN=TestEscape make e2e. To drive
// the CLI by hand against the stand-in, see scripts/e2e/cmd/standin.
package e2e
