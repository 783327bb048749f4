#!/usr/bin/env bash
# The agents' end-to-end suite: each coding agent named in
# scripts/e2e/agent-versions (its real CLI, from npm), driven in tmux like a
# person at the keyboard against a loopback stand-in for its model API,
# with hud's hook installed by `hud install <agent>`; every step is checked
# in `hud status --json`. `make agents-e2e` runs it after `make build`.
# See scripts/agents/doc.go.
#
#   scripts/agents/run.sh --install   only install the CLIs (CI does it first)
#
#   HUD_AGENTS_E2E=skip   skip it (exit 0)
#   AGENTS_RUN=Regexp     run only the matching scenarios (go test -run)
#   HUD_AGENTS_RECORD=DIR save every hook payload in DIR/<agent>-<version>/<scenario>/
#   HUD_AGENTS_KEEP=1     keep each scenario's temp HOME
#
# Where tmux or a CLI cannot be had, a person's run says why and skips;
# under CI (CI=true) that is a failure, since .ci/run installs what is needed.
set -euo pipefail
cd "$(dirname "$0")/../.."

cache="scripts/e2e/.cache"
versions_file="scripts/e2e/agent-versions"

suite=agents-e2e
. scripts/skip.sh

if [ "${HUD_AGENTS_E2E:-}" = skip ]; then
  echo "agents-e2e: SKIPPED: HUD_AGENTS_E2E=skip"
  exit 0
fi
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed (apt-get install tmux / brew install tmux)"

# install AGENT PACKAGE VERSION installs that release into the cache, once:
# every worktree and CI run shares it. The suite finds the executable there.
install() {
  local agent="$1" pkg="$2" version="$3" prefix="$cache/$1-$3" log="$cache/npm-install-$1-$3.log"
  if [ -d "$prefix/node_modules/$pkg" ]; then return 0; fi
  command -v npm >/dev/null 2>&1 || skip "npm is not installed, so $pkg cannot be fetched (apt-get install npm)"
  echo "agents-e2e: installing $pkg@$version into $prefix"
  mkdir -p "$prefix"
  if ! npm install --prefix "$prefix" --no-audit --no-fund "$pkg@$version" >"$log" 2>&1; then
    tail -20 "$log" >&2
    skip "npm could not install $pkg@$version (log: $log)"
  fi
}

mkdir -p "$cache"
while read -r agent pkg version; do
  case "$agent" in ''|'#'*) continue ;; esac
  install "$agent" "$pkg" "$version"
done < "$versions_file"
[ "${1:-}" = --install ] && exit 0

for var in HUD_AGENTS_RECORD; do
  case "${!var:-}" in
    "" | /*) ;;
    *) export "$var=$PWD/${!var}" ;;
  esac
done
[ -x bin/hud ] && [ -x bin/hud-hook ] || make build
socket="hud-agents-$$"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true' EXIT INT TERM
start=$(date +%s)
HUD_AGENTS_CACHE="$PWD/$cache" HUD_AGENTS_BIN="$PWD/bin" HUD_AGENTS_TMUX_SOCKET="$socket" \
  go test -count=1 -v -timeout 8m -run "${AGENTS_RUN:-.}" ./scripts/agents/
echo "agents-e2e: took $(( $(date +%s) - start )) s"
