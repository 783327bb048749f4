#!/bin/sh
# Before the package's files go: stop every process running its binaries,
# so nothing of hud is left running once it is removed. That is the tray
# (`hud`) of every logged-in user, and the detached helpers of `hud-hook`:
# lock holders (one per live Claude Code session) and activity workers.
#
# A process is ours when its executable is /usr/bin/hud or
# /usr/bin/hud-hook, read from /proc/<pid>/exe: never by name, so no other
# program is touched. The tray exits cleanly on SIGTERM; a lock holder
# simply ends, and the HUD reads its lock directory as stale from then on.
#
# Nothing here touches a user's files: the hooks in ~/.claude/settings.json
# are the user's, added by `hud install` and taken out by `hud uninstall`.
#
# Called as `prerm remove` (dpkg) or `preun 0` (rpm) on removal; on an
# upgrade (`prerm upgrade`, `preun 1`) running processes keep the old
# binaries they have open, and the next `hud` started is the new one.

# -e as Debian wants, but nothing here may fail the removal: every command
# that can fail (a process gone meanwhile) is allowed to.
set -eu

case "${1:-}" in
remove | 0) ;;
*) exit 0 ;;
esac

ours() {
	for exe in /proc/[0-9]*/exe; do
		target=$(readlink "$exe" 2>/dev/null) || continue
		case "$target" in
		/usr/bin/hud | /usr/bin/hud-hook | "/usr/bin/hud (deleted)" | "/usr/bin/hud-hook (deleted)")
			pid=${exe#/proc/}
			echo "${pid%/exe}"
			;;
		esac
	done
}

echo "hud: hooks that 'hud install' put in a user's ~/.claude/settings.json stay there; 'hud uninstall' (run by that user before removing) takes them out" >&2

pids=$(ours)
[ -n "$pids" ] || exit 0
# shellcheck disable=SC2086 # one word per pid
kill -TERM $pids 2>/dev/null || true
# The tray takes a moment to leave the tray host; give everyone 3 s.
i=0
while [ $i -lt 30 ]; do
	pids=$(ours)
	[ -n "$pids" ] || break
	sleep 0.1
	i=$((i + 1))
done
pids=$(ours)
if [ -n "$pids" ]; then
	# shellcheck disable=SC2086
	kill -KILL $pids 2>/dev/null || true
fi
exit 0
