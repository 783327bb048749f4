#!/bin/bash
# The shell way: a hook written in bash with jq doing, for one event, the
# core of what bin/hud-hook does (no follow-ups): parse the event, lock the
# store, set the session's record, replace the store atomically. The bench
# times it against the hook (scripts/bench/hook.go).
set -euo pipefail
input=$(cat)
IFS=$'\t' read -r sid event cwd < <(jq -r '[.session_id, .hook_event_name, .cwd // ""] | @tsv' <<<"$input")
case $event in
UserPromptSubmit | PreToolUse | PostToolUse) state=working ;;
PermissionRequest | Notification) state=waiting ;;
*) state=ready ;;
esac
dir=$HOME/.capacitor
store=$dir/sessions.json
mkdir -p "$dir"
now=$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)
exec 9>"$store.lock"
flock 9
[ -s "$store" ] || echo '{"version": 3, "sessions": {}}' >"$store"
jq --arg id "$sid" --arg state "$state" --arg cwd "$cwd" --arg now "$now" --arg ev "$event" \
	'.sessions[$id] = ((.sessions[$id] // {session_id: $id, state_changed_at: $now})
	  + {state: $state, cwd: $cwd, updated_at: $now, last_event: {event: $ev, timestamp: $now}})' \
	"$store" >"$store.tmp"
mv "$store.tmp" "$store"
