// Package e2e is the HUD's end-to-end suite against the real Claude Code
// CLI: the npm releases named in claude-code-versions (the oldest hud
// supports and the newest tested) run in tmux against a loopback stand-in
// for the Anthropic API (package standin), with hud-hook wired in by
// `hud install`, and each scenario types what a person types and checks
// that `hud status --json` shows the right state within a deadline,
// recording how long it took.
//
// Each scenario has its own temp HOME (onboarded, trusted, manual
// permission mode) and checks the CLI's side of every step before the
// HUD's. The rig follows Claude rather than its screen where it can: it
// is at its prompt, and a turn is over, when Claude's own
// ~/.claude/sessions/<pid>.json says "idle"; a startup question (Claude's
// file says "waiting") is answered as a person would, once the HUD was
// seen to show the session waiting. The screen is read for what only it
// shows: that the input box is drawn, a dialog, an answer. A failed step
// prints the state expected, the state seen, what Claude itself said, the
// hook's debug log, the store, the locks and the screen.
//
// TestLedger checks the wait ledger (`hud history --json`) against what
// the rig did and measured: each dialog with its subject, how it was
// answered (in the terminal, with Esc, from the tray's menu, clicked over
// D-Bus on a session bus of the rig's own, or with `hud answer`) and a
// response time within a second of the rig's, with the tray running and
// stopped.
//
// A scenario that needs a newer client than the oldest calls needClient,
// which skips it on older ones with the reason in the output and the
// run's summary. HUD_E2E_RECORD=DIR saves every hook payload (see
// record_test.go and testdata/hook/README.md); HUD_E2E_STATUSLINE=DIR
// saves what TestRunway's status line was handed
// (testdata/statusline/).
//
// The tests need the CLI, tmux and the built binaries, so they run through
// scripts/e2e/run.sh (`make e2e`), which installs the CLIs into
// scripts/e2e/.cache and runs the suite once per release, side by side;
// under a plain `go test ./...` they skip, saying so. One scenario on one
// release: CLAUDE_CODE_VERSION=2.1.332 E2E_RUN=TestEscape make e2e. The
// release npm calls latest, whichever it is: make e2e-latest. To drive the
// CLI by hand against the stand-in, see scripts/e2e/cmd/standin.
//
// The soak (TestSoak, `make soak`, run.sh --soak) looks at every moment
// rather than chosen ones: it drives the newest tested release at random
// (soakKinds: prompts short and long, Esc mid-answer and mid-tool,
// permissions approved, denied and "don't ask again", questions answered
// and dismissed, plan mode, background and foreground subagents, /compact,
// /clear, a second session in the same folder, idle gaps, one past
// Claude's 60 s idle notification) and, every 250 ms, reads `hud status
// --json` beside Claude's own sessions/<pid>.json status (idle is ready,
// busy is working or compacting, waiting is waiting) and what the screen
// shows. It prints the seed, the late share (samples where hud has not
// shown a change of Claude's for over a second), every disagreement over a
// second with the step before it, every flicker (a hud state shown under
// 0.5 s while Claude's held), and the lag per kind of change, and writes
// the same as Markdown to bin/e2e/soak-<release>.md (every sample and
// step, to look into one: soak-<release>.tsv). It fails on a
// disagreement over 2 s in which hud is behind Claude or wrong (hud ahead,
// a hook earlier than Claude's own status, is reported), a flicker, a
// failed `hud status`, a run the rig lost control of, a ledger (`hud
// history --json` over the run) that says other than the samples of hud
// for over 1 % of the time, or one that lacks a dialog the soak opened
// (the share and the dialogs are in the report). SOAK_SEED and SOAK_S
// (seconds) change the seed (1) and the length (120 s, the run `make
// test` has); the long run: SOAK_S=1800 make soak.
package e2e
