#!/bin/sh
# The tray's desktop test (make desktop-test): a headless Linux desktop —
# Xvfb, a D-Bus session bus, xfce4-panel as the tray host, dunst as the
# notification daemon — and the Go tests of scripts/desktop reading the
# tray back over D-Bus. Screenshots and the log land in testdata/out/desktop/;
# with UPDATE_SCREENSHOT=1 (make screenshot), the two-session one, once the
# tests pass, in docs/screenshot.png.
#
# Missing packages are installed when running as root (CI); otherwise the
# test is skipped with a message saying what to install.
set -eu

cd "$(dirname "$0")/../.."
repo=$(pwd)
packages="xvfb xfce4-panel dbus-x11 dunst libnotify-bin imagemagick"
tools="Xvfb xfce4-panel dbus-launch dunst import"

missing=""
for tool in $tools; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "desktop-test: installing$missing ($packages)"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
	else
		echo "desktop-test: SKIPPED — missing$missing."
		echo "  Install them with: sudo apt-get install $packages"
		exit 0
	fi
fi

[ -x bin/hud ] && [ -x bin/hud-hook ] || { echo "desktop-test: build first (make build)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/hud-desktop.XXXXXX")
pids=""
cleanup() {
	status=$?
	set +e
	for pid in $pids; do kill "$pid" 2>/dev/null; done
	for pid in $pids; do wait "$pid" 2>/dev/null; done
	[ -n "${DBUS_SESSION_BUS_PID:-}" ] && kill "$DBUS_SESSION_BUS_PID" 2>/dev/null
	if [ $status -ne 0 ]; then
		for log in "$work"/*.log; do echo "--- $log"; tail -n 20 "$log"; done
	fi
	# Services the bus started (xfconfd) may still be writing as they go.
	rm -rf "$work" 2>/dev/null || { sleep 1; rm -rf "$work"; }
	exit $status
}
trap cleanup EXIT INT TERM

# Go keeps its caches under $HOME: pin them before HOME moves.
GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH)
export GOCACHE GOMODCACHE GOPATH

# The desktop's own home, so the panel and xfconf read our panel layout
# (and never the machine's), and start without their first-run dialog.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_RUNTIME_DIR="$work/run"
export NO_AT_BRIDGE=1 # no accessibility bus: one process less to clean up
mkdir -p "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
cp scripts/desktop/testdata/xfce4-panel.xml "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml/"

# A free display number.
display=90
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 800x200x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids="$pids $!"
export DISPLAY=":$display"
i=0
until xdpyinfo >/dev/null 2>&1 || [ -e "/tmp/.X11-unix/X$display" ]; do
	i=$((i + 1)); [ $i -gt 100 ] && { echo "desktop-test: Xvfb did not start"; exit 1; }
	sleep 0.05
done

eval "$(dbus-launch --sh-syntax)"
export DBUS_SESSION_BUS_ADDRESS DBUS_SESSION_BUS_PID

xfce4-panel --disable-wm-check >"$work/panel.log" 2>&1 &
pids="$pids $!"
dunst >"$work/dunst.log" 2>&1 &
pids="$pids $!"

# Wait for the tray host to own the StatusNotifierWatcher name.
i=0
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
	org.freedesktop.DBus.NameHasOwner string:org.kde.StatusNotifierWatcher 2>/dev/null | grep -q true; do
	i=$((i + 1)); [ $i -gt 200 ] && { echo "desktop-test: the panel's tray never started"; exit 1; }
	sleep 0.05
done

out="$repo/testdata/out/desktop"
rm -rf "$out"
mkdir -p "$out"
HUD_DESKTOP=1 HUD_BIN="$repo/bin/hud" HUD_HOOK_BIN="$repo/bin/hud-hook" HUD_OUT="$out" \
	HOME="$work/home" go test -count=1 -timeout 5m -v -run "${DESKTOP_RUN:-.}" ./scripts/desktop/ >"$out/test.log" 2>&1 || true
cat "$out/test.log"
status=$(grep -c '^FAIL\|^--- FAIL\|^panic:' "$out/test.log" || true)
if [ "$status" != 0 ]; then
	echo "desktop-test: FAILED (screenshots in $out)"
	exit 1
fi
# The panel strip with the tray and the notification bubble, for the README:
# only on request (make screenshot), so a test run leaves the tree clean.
if [ "${UPDATE_SCREENSHOT:-}" = 1 ] && [ -f "$out/tray-two-sessions.png" ]; then
	mkdir -p docs
	convert "$out/tray-two-sessions.png" -crop 800x112+0+0 +repage docs/screenshot.png
fi
echo "desktop-test: ok (screenshots in $out)"
