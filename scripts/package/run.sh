#!/bin/sh
# The package test (make package-test, part of make test): the .deb as a
# person gets it. It is built with nfpm, inspected (dpkg-deb -I/-c),
# installed with dpkg, used from /usr/bin (hud --version, hud install,
# a session through the real hook and its lock holder, hud status,
# hud doctor), then removed and purged; afterwards no file of the package
# is left, no process runs /usr/bin/hud or /usr/bin/hud-hook, and the
# user's settings.json is byte for byte what it was.
#
# It installs into the real /usr/bin, so it runs only as root (CI is root on
# a throwaway machine); elsewhere it says so and skips. It refuses to run
# where a hud package or /usr/bin/hud is already there, and holds a lock so
# two runs on one machine take turns.
set -eu

cd "$(dirname "$0")/../.."
repo=$(pwd)

suite=package-test
. scripts/skip.sh
[ "$(id -u)" = 0 ] || skip "installing a .deb needs root (CI runs it as root)"
command -v dpkg >/dev/null 2>&1 || skip "no dpkg: not a Debian-like system"

exec 9>/tmp/hud-package-test.lock
flock 9

if dpkg-query -W -f='${Status}' hud 2>/dev/null | grep -q "ok installed" || [ -e /usr/bin/hud ] || [ -e /usr/bin/hud-hook ]; then
	skip "hud is already installed on this machine (/usr/bin/hud or the hud package); not touching it"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/hud-package.XXXXXX")
pids=""
installed=""
fail() {
	echo "package-test: FAILED: $*" >&2
	exit 1
}
cleanup() {
	status=$?
	set +e
	for pid in $pids; do kill "$pid" 2>/dev/null; done
	if [ -n "$installed" ]; then
		for pid in $(ours); do kill -KILL "$pid" 2>/dev/null; done
		echo "package-test: purging hud after a failure"
		dpkg --purge hud >/dev/null 2>&1
	fi
	[ $status -ne 0 ] && [ -f "$work/home/.claude/hud-hook-debug.log" ] && tail -n 20 "$work/home/.claude/hud-hook-debug.log"
	rm -rf "$work"
	exit $status
}
trap cleanup EXIT INT TERM

# ours lists the processes running the package's binaries.
ours() {
	for exe in /proc/[0-9]*/exe; do
		case "$(readlink "$exe" 2>/dev/null)" in
		/usr/bin/hud | /usr/bin/hud-hook | "/usr/bin/hud (deleted)" | "/usr/bin/hud-hook (deleted)")
			pid=${exe#/proc/}
			echo "${pid%/exe}"
			;;
		esac
	done
}

# Build: the binaries for this machine's architecture and the .deb, the way
# make dist does.
arch=$(go env GOARCH)
make --no-print-directory "dist/build/linux_$arch/hud" >/dev/null
version=$(./packaging/version.sh)
deb="dist/hud_${version}-1_${arch}.deb"
make --no-print-directory "$deb" >/dev/null
go build -o "$work/claude" ./scripts/desktop/claude

echo "package-test: $deb"
dpkg-deb -I "$deb" >"$work/info"
dpkg-deb -c "$deb" >"$work/contents"
grep -q "^ Package: hud$" "$work/info" || fail "no Package: hud in dpkg-deb -I"
grep -q "^ Version: ${version}-1$" "$work/info" || fail "version is not ${version}-1"
grep -q "hud install" "$work/info" || fail "the description does not say to run hud install"
grep -q "claude plugin install hud@hud" "$work/info" || fail "the description does not name the plugin"
grep -q " prerm " "$work/info" || fail "no prerm in the control archive"
for f in ./usr/bin/hud ./usr/bin/hud-hook ./usr/share/doc/hud/copyright ./usr/share/doc/hud/README.md \
	./usr/share/applications/hud.desktop ./usr/share/icons/hicolor/32x32/apps/hud.png \
	./usr/share/man/man1/hud.1.gz ./usr/share/man/man1/hud-hook.1.gz; do
	grep -q " $f\$" "$work/contents" || fail "$f is not in the package"
done
grep -q "^-rwxr-xr-x root/root .* ./usr/bin/hud-hook$" "$work/contents" || fail "/usr/bin/hud-hook is not 0755 root"
if grep -q "etc/xdg/autostart" "$work/contents"; then fail "the package starts hud at login for everyone"; fi

# Install, noting first which of the package's paths the machine has
# already (shared directories such as /usr/share/applications).
sed -n 's#.* \./\(.*\)$#/\1#p' "$work/contents" >"$work/paths"
while read -r f; do [ -e "$f" ] && echo "$f"; done <"$work/paths" >"$work/existed" || true
installed=1
dpkg -i "$deb" >/dev/null
/usr/bin/hud --version | grep -q "^hud ${version} (commit " || fail "hud --version: $(/usr/bin/hud --version)"
/usr/bin/hud-hook --version | grep -q "^hud-hook ${version} " || fail "hud-hook --version: $(/usr/bin/hud-hook --version)"
/usr/bin/hud version | grep -q "^hud ${version} " || fail "hud version"
zcat /usr/share/man/man1/hud.1.gz | grep -q "^\.SS doctor$" || fail "man hud has no doctor section"

# A person: their own settings.json, then hud install (which finds
# /usr/bin/hud-hook beside /usr/bin/hud), and hud doctor.
export HOME="$work/home"
unset XDG_CONFIG_HOME XDG_STATE_HOME DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR 2>/dev/null || true
mkdir -p "$HOME/.claude" "$work/proj"
printf '{\n  "permissions": {"allow": ["Bash(ls:*)"]}\n}\n' >"$HOME/.claude/settings.json"
/usr/bin/hud install >"$work/install.out"
grep -q "/usr/bin/hud-hook" "$HOME/.claude/settings.json" || fail "hud install did not wire /usr/bin/hud-hook"
cp "$HOME/.claude/settings.json" "$work/settings.before"
/usr/bin/hud doctor --project "$work/proj" >"$work/doctor" || true
grep -q "^✓ hooks .*installed in ~/.claude/settings.json for [0-9][0-9]* events (/usr/bin/hud-hook)" "$work/doctor" ||
	fail "hud doctor: $(cat "$work/doctor")"

# A session through the installed hook: a stand-in Claude runs
# /usr/bin/hud-hook on SessionStart, which starts a lock holder (from
# /usr/bin/hud-hook) for as long as the stand-in lives.
mkfifo "$work/events"
HUD_HOOK_COMMAND=/usr/bin/hud-hook "$work/claude" <"$work/events" >"$work/claude.out" &
pids="$pids $!"
exec 8>"$work/events"
printf '{"hook_event_name":"SessionStart","session_id":"pkg-test","cwd":"%s","source":"startup","transcript_path":"%s/t.jsonl"}\n' \
	"$work/proj" "$work" >"$work/start.json"
echo "$work/start.json" >&8
i=0
until grep -q '"state": "ready"' "$work/status.json" 2>/dev/null && [ -n "$(ls "$HOME/.claude/sessions/"*.lock 2>/dev/null)" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "no ready session with a lock after 10 s: $(cat "$work/claude.out" "$work/status.json" 2>/dev/null)"
	sleep 0.1
	/usr/bin/hud status --json >"$work/status.json" 2>&1 || true
done
# And a reader that runs until stopped, as the tray would.
/usr/bin/hud status --watch >/dev/null 2>&1 &
pids="$pids $!"
sleep 0.3
running=$(ours | wc -l)
[ "$running" -ge 2 ] || fail "expected a lock holder and hud status --watch running from /usr/bin, found $running"
echo "package-test: installed; a session is ready; $running processes run /usr/bin/hud*; removing"

# Remove: every process of the package ends, the user's files stay.
dpkg -r hud >/dev/null 2>"$work/remove.err"
grep -q "hud uninstall" "$work/remove.err" || fail "removing did not tell about the hooks left in settings.json: $(cat "$work/remove.err")"
left=$(ours)
[ -z "$left" ] || fail "processes still running /usr/bin/hud*: $(for p in $left; do tr '\0' ' ' </proc/$p/cmdline; echo; done)"
cmp -s "$HOME/.claude/settings.json" "$work/settings.before" || fail "removing the package changed settings.json"
dpkg --purge hud >/dev/null 2>&1 # a no-op: the package has no conffiles
installed=""
if dpkg-query -W -f='${Status}' hud 2>/dev/null | grep -q "ok installed"; then fail "dpkg still lists hud"; fi
while read -r f; do
	[ -e "$f" ] || continue
	grep -qxF "$f" "$work/existed" || fail "left behind: $f"
done <"$work/paths"

echo "package-test: ok: built, inspected, installed, used from /usr/bin, removed with no process and no file left"
