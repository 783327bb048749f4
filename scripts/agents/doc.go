// Package agents is hud's end-to-end suite against the coding agents
// besides Claude Code: the npm releases named in
// scripts/e2e/agent-versions run in tmux (internal/tmux, shared with the
// Claude Code suite) against a loopback stand-in for their model API
// (package standin), with hud-hook wired in by `hud install <agent>`.
// Each scenario types what a person types and checks, after every step,
// that `hud status --json` shows the agent's session in the right state.
//
// Each scenario has its own temp HOME. A Codex scenario starts Codex as a
// person does after `hud install codex`: Codex asks to review the new
// hooks and the rig trusts them at that dialog, as the person would (hud
// never writes Codex's trust for them). An opencode scenario installs
// hud's plugin with `hud install opencode`; opencode's first start in a
// fresh HOME installs its plugin package from npm, which takes it half a
// minute.
//
// HUD_AGENTS_RECORD=DIR saves every hook payload in
// DIR/<agent>-<version>/<scenario>/NN-<event>.json, in the layout the
// hook's replay test reads from testdata/hook/ (hud/hook/agent_run_test.go, TestAgentRecordedReplay).
//
// The tests need the CLIs, tmux and the built binaries, so they run through
// scripts/agents/run.sh (`make agents-e2e`), which installs the CLIs into
// scripts/e2e/.cache; under a plain `go test ./...` they skip, saying so.
// One scenario: AGENTS_RUN=TestCodexTwoTerminals make agents-e2e. To
// drive an agent by hand against the stand-in, see scripts/agents/cmd/standin.
package agents
