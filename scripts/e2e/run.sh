#!/usr/bin/env bash
# The end-to-end suite: the real Claude Code CLI, driven in tmux like a
# person at the keyboard, against a loopback stand-in for the Anthropic API,
# with the HUD's hook wired in; every step is checked in `hud status --json`.
# `make e2e` runs it after `make build`. See scripts/e2e/doc.go.
#
#   HUD_E2E=skip        skip it (exit 0)
#   HUD_E2E_KEEP=1      keep each scenario's temp HOME (a failed one's is kept
#                       unless HUD_E2E_KEEP=0)
#   HUD_E2E_VERBOSE_API=1  print the stand-in's log as it goes
#   HUD_E2E_DUMP=DIR    save every request the CLI sends the stand-in
#   E2E_RUN=Regexp      run only the matching scenarios (go test -run)
#   HUD_E2E_BIN=DIR     take hud and hud-hook from DIR instead of bin/
#
# Where tmux or the CLI cannot be had, a person's run says why and skips;
# under CI (CI=true) that is a failure, since .ci/run installs what is needed.
set -euo pipefail
cd "$(dirname "$0")/../.."

CLAUDE_CODE_VERSION=2.1.197
cache="scripts/e2e/.cache"
prefix="$cache/claude-code-$CLAUDE_CODE_VERSION"

skip() {
  if [ "${CI:-}" = true ]; then
    echo "e2e: FAILED: $* (CI must provide it: see .ci/run)" >&2
    exit 1
  fi
  echo "e2e: SKIPPED: $*"
  exit 0
}

if [ "${HUD_E2E:-}" = skip ]; then
  echo "e2e: SKIPPED: HUD_E2E=skip"
  exit 0
fi
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed (apt-get install tmux / brew install tmux)"

# find_claude prints the CLI's native executable. The npm package ships it
# in a per-platform package; running that file directly (rather than the
# wrapper) keeps the process name "claude", as a person's install has it.
find_claude() {
  local f
  for f in "$prefix"/node_modules/@anthropic-ai/claude-code-*/claude \
           "$prefix"/node_modules/@anthropic-ai/claude-code/bin/claude.exe; do
    [ -x "$f" ] || continue
    if "$f" --version 2>/dev/null | grep -q "^$CLAUDE_CODE_VERSION "; then
      echo "$PWD/$f"
      return 0
    fi
  done
  return 1
}

if ! claude=$(find_claude); then
  command -v npm >/dev/null 2>&1 || skip "npm is not installed, so the Claude Code CLI cannot be fetched (apt-get install npm)"
  echo "e2e: installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION into $prefix"
  mkdir -p "$prefix"
  # --ignore-scripts: the package's postinstall only copies the native
  # binary over its wrapper; the suite runs the native binary where npm put it.
  if ! npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts \
         "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" >"$cache/npm-install.log" 2>&1; then
    tail -20 "$cache/npm-install.log" >&2
    skip "npm could not install @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION (log: $cache/npm-install.log)"
  fi
  claude=$(find_claude) || skip "the npm package installed no runnable claude for $(uname -sm)"
fi

bindir="${HUD_E2E_BIN:-$PWD/bin}"
[ -x "$bindir/hud" ] && [ -x "$bindir/hud-hook" ] || make build

socket="hud-e2e-$$"
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
}
trap cleanup EXIT INT TERM

echo "e2e: $("$claude" --version) at $claude"
export HUD_E2E_CLAUDE="$claude" HUD_E2E_BIN="$bindir" HUD_E2E_TMUX_SOCKET="$socket" \
       HUD_E2E_REPORT="$PWD/$cache/latency.md"
start=$(date +%s)
status=0
go test -count=1 -v -timeout 6m -run "${E2E_RUN:-.}" ./scripts/e2e/ || status=$?
echo "e2e: took $(( $(date +%s) - start )) s; latency table (Markdown): $cache/latency.md"
exit $status
