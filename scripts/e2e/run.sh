#!/usr/bin/env bash
# The end-to-end suite: the real Claude Code CLI, driven in tmux like a
# person at the keyboard, against a loopback stand-in for the Anthropic API,
# with the HUD's hook wired in; every step is checked in `hud status --json`.
# `make e2e` runs it after `make build`. See scripts/e2e/doc.go.
#
# It runs once per Claude Code release named in scripts/e2e/claude-code-versions
# (the oldest supported and the newest tested), the runs side by side, each
# with its own tmux server and stand-in.
#
#   scripts/e2e/run.sh --install   only install the releases (CI does it first)
#   scripts/e2e/run.sh --soak      the soak (`make soak`, TestSoak): the newest
#                                  tested release driven at random; SOAK_S
#                                  (seconds, default 120) and SOAK_SEED change
#                                  it; its report goes to bin/e2e/soak-X.md,
#                                  every sample and step to bin/e2e/soak-X.tsv
#
#   CLAUDE_CODE_VERSION=X  run against release X alone (installed on demand)
#   CLAUDE_CODE_VERSION=latest  the release npm calls latest, asked of npm
#                       (`make e2e-latest`): a new release checked in one
#                       command before it goes into the versions file
#   HUD_E2E=skip        skip it (exit 0)
#   HUD_E2E_SERIAL=1    one release after the other rather than side by side
#   HUD_E2E_KEEP=1      keep each scenario's temp HOME (a failed one's is kept
#                       unless HUD_E2E_KEEP=0)
#   HUD_E2E_VERBOSE_API=1  print the stand-in's log as it goes
#   HUD_E2E_DUMP=DIR    save every request the CLI sends the stand-in
#   HUD_E2E_RECORD=DIR  save every hook payload and Claude's session files
#                       at that moment in DIR (one release only; see
#                       testdata/hook/README.md)
#   HUD_E2E_STATUSLINE=DIR  save the status line input TestRunway saw in DIR
#   E2E_RUN=Regexp      run only the matching scenarios (go test -run)
#   HUD_E2E_BIN=DIR     take hud and hud-hook from DIR instead of bin/
#   UPDATE_SCREENSHOT=1 TestPage (the page in headless chromium, on a phone's
#                       screen) also writes its picture, on the newest tested
#                       release, to docs/web-phone.png; every run writes it
#                       to testdata/out/page-<release>.png
#
# Where tmux or the CLI cannot be had, a person's run says why and skips;
# under CI (CI=true) that is a failure, since .ci/run installs what is needed.
set -euo pipefail
cd "$(dirname "$0")/../.."

cache="scripts/e2e/.cache"
versions_file="scripts/e2e/claude-code-versions"

suite=e2e
. scripts/skip.sh

if [ "${HUD_E2E:-}" = skip ]; then
  echo "e2e: SKIPPED: HUD_E2E=skip"
  exit 0
fi
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed (apt-get install tmux / brew install tmux)"

soak=
if [ "${1:-}" = --soak ]; then
  soak=1
  suite=soak
fi

# latest_release prints the release npm calls latest, the one a person
# installing Claude Code gets now. It ends the run when npm cannot say:
# a check of the newest release that quietly ran none proves nothing.
latest_release() {
  local v log
  if ! command -v npm >/dev/null 2>&1; then
    echo "e2e: npm is not installed, so it cannot say which Claude Code release is latest (apt-get install npm)" >&2
    exit 1
  fi
  log=$(mktemp "${TMPDIR:-/tmp}/hud-e2e-npm-view.XXXXXX")
  if ! v=$(npm view --fetch-retries=1 --fetch-timeout=30000 @anthropic-ai/claude-code version 2>"$log"); then
    head -4 "$log" >&2
    echo "e2e: npm did not say which Claude Code release is latest: is its registry ($(npm config get registry 2>/dev/null)) reachable? npm's log: $log. A release already installed runs with CLAUDE_CODE_VERSION=X make e2e" >&2
    exit 1
  fi
  rm -f "$log"
  # The answer names a directory and is handed to npm: a release number only.
  if ! [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "e2e: npm named \"$v\" as the latest Claude Code, which is not a release number" >&2
    exit 1
  fi
  echo "$v"
}

if [ "${CLAUDE_CODE_VERSION:-}" = latest ]; then
  latest=$(latest_release)
  newest=$(awk '!/^#/ && $1 == "newest" { print $2 }' "$versions_file")
  echo "e2e: npm's latest Claude Code is $latest (the newest tested, in $versions_file: $newest)"
  versions=("$latest")
elif [ -n "${CLAUDE_CODE_VERSION:-}" ]; then
  versions=("$CLAUDE_CODE_VERSION")
elif [ -n "$soak" ]; then
  mapfile -t versions < <(awk '$1 == "newest" { print $2 }' "$versions_file")
  [ ${#versions[@]} -eq 1 ] || { echo "soak: $versions_file names no newest release" >&2; exit 1; }
else
  mapfile -t versions < <(awk '!/^#/ && NF == 2 { print $2 }' "$versions_file")
  [ ${#versions[@]} -gt 0 ] || { echo "e2e: $versions_file names no release" >&2; exit 1; }
fi
if [ -n "${HUD_E2E_RECORD:-}" ] && [ ${#versions[@]} -ne 1 ]; then
  echo "e2e: HUD_E2E_RECORD records one release: set CLAUDE_CODE_VERSION too" >&2
  exit 2
fi

# find_claude VERSION prints the CLI's native executable. The npm package
# ships it in a per-platform package; running that file directly (rather
# than the wrapper) keeps the process name "claude", as a person's install
# has it.
find_claude() {
  local f prefix="$cache/claude-code-$1"
  for f in "$prefix"/node_modules/@anthropic-ai/claude-code-*/claude \
           "$prefix"/node_modules/@anthropic-ai/claude-code/bin/claude.exe; do
    [ -x "$f" ] || continue
    if "$f" --version 2>/dev/null | grep -q "^$1 "; then
      echo "$PWD/$f"
      return 0
    fi
  done
  return 1
}

# install_claude VERSION installs that release into the cache, once: every
# worktree and CI run shares it.
install_claude() {
  local prefix="$cache/claude-code-$1" log="$cache/npm-install-$1.log"
  find_claude "$1" >/dev/null && return 0
  command -v npm >/dev/null 2>&1 || skip "npm is not installed, so the Claude Code CLI cannot be fetched (apt-get install npm)"
  echo "e2e: installing @anthropic-ai/claude-code@$1 into $prefix"
  mkdir -p "$prefix"
  # --ignore-scripts: the package's postinstall only copies the native
  # binary over its wrapper; the suite runs the native binary where npm put it.
  if ! npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts \
         "@anthropic-ai/claude-code@$1" >"$log" 2>&1; then
    tail -20 "$log" >&2
    skip "npm could not install @anthropic-ai/claude-code@$1 (log: $log)"
  fi
  find_claude "$1" >/dev/null || skip "the npm package @anthropic-ai/claude-code@$1 installed no runnable claude for $(uname -sm)"
}

# The suite runs in scripts/e2e: directories given relative to here are
# made absolute first.
for var in HUD_E2E_RECORD HUD_E2E_DUMP HUD_E2E_BIN HUD_E2E_STATUSLINE; do
  case "${!var:-}" in
    "" | /*) ;;
    *) export "$var=$PWD/${!var}" ;;
  esac
done

mkdir -p "$cache"
for v in "${versions[@]}"; do install_claude "$v"; done
if [ "${1:-}" = --install ]; then
  for v in "${versions[@]}"; do echo "e2e: Claude Code $v at $(find_claude "$v")"; done
  exit 0
fi

bindir="${HUD_E2E_BIN:-$PWD/bin}"
[ -x "$bindir/hud" ] && [ -x "$bindir/hud-hook" ] || make build

# One test binary for every release (compiling is most of a run's CPU),
# kept with the latency tables in this checkout's bin/e2e: the cache may be
# shared by several checkouts.
out="$PWD/bin/e2e"
mkdir -p "$out"
[ -n "$soak" ] || rm -f "$out"/latency*.md
go test -c -o "$out/e2e.test" ./scripts/e2e/

sockets=()
cleanup() {
  local s
  for s in "${sockets[@]}"; do tmux -L "$s" kill-server 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

# run_one VERSION runs the suite against that release, its lines prefixed
# with the release when several run side by side.
# The soak runs TestSoak alone, for as long as it was asked to and some.
run_one() {
  local v="$1" claude socket="hud-e2e-$$-$1" tag="" run="${E2E_RUN:-.}" timeout=15m
  local report=(HUD_E2E_REPORT="$out/latency-$v.md")
  claude=$(find_claude "$v")
  [ ${#versions[@]} -gt 1 ] && tag="[$v] "
  if [ -n "$soak" ]; then
    run='^TestSoak$' timeout="$(( ${SOAK_S:-120} + 600 ))s"
    report=(HUD_SOAK=1 HUD_SOAK_REPORT="$out/soak-$v.md" HUD_SOAK_TRACE="$out/soak-$v.tsv")
  fi
  (
    cd scripts/e2e
    env HUD_E2E_CLAUDE="$claude" HUD_E2E_BIN="$bindir" HUD_E2E_TMUX_SOCKET="$socket" "${report[@]}" \
      "$out/e2e.test" -test.count=1 -test.v -test.timeout "$timeout" -test.run "$run"
  ) 2>&1 | sed -u "s/^/$tag/"
  return "${PIPESTATUS[0]}"
}

start=$(date +%s)
for v in "${versions[@]}"; do sockets+=("hud-e2e-$$-$v"); done
declare -A status
if [ ${#versions[@]} -gt 1 ] && [ "${HUD_E2E_SERIAL:-}" != 1 ]; then
  declare -A pids
  for v in "${versions[@]}"; do
    run_one "$v" & pids[$v]=$!
  done
  for v in "${versions[@]}"; do
    status[$v]=0; wait "${pids[$v]}" || status[$v]=$?
  done
else
  for v in "${versions[@]}"; do
    status[$v]=0; run_one "$v" || status[$v]=$?
  done
fi

echo
failed=0
for v in "${versions[@]}"; do
  if [ "${status[$v]}" = 0 ]; then result=ok; else result="FAILED (exit ${status[$v]})"; failed=1; fi
  if [ -n "$soak" ]; then
    echo "soak: Claude Code $v: $result; report (Markdown): bin/e2e/soak-$v.md"
  else
    echo "e2e: Claude Code $v: $result; latency table (Markdown): bin/e2e/latency-$v.md"
  fi
done
if [ ${#versions[@]} -gt 1 ]; then
  tables=()
  for v in "${versions[@]}"; do [ -s "$out/latency-$v.md" ] && tables+=("$out/latency-$v.md"); done
  if [ ${#tables[@]} -gt 1 ] && go run ./scripts/e2e/cmd/latencytable "${tables[@]}" > "$out/latency.md"; then
    echo "e2e: every release side by side (Markdown): bin/e2e/latency.md"
  fi
fi
echo "$suite: took $(( $(date +%s) - start )) s"
exit $failed
