#!/bin/sh
# The tray's desktop test (make desktop-test): a headless Linux desktop —
# Xvfb, a D-Bus session bus, xfce4-panel as the tray host, dunst as the
# notification daemon — and the Go tests of scripts/desktop reading the
# tray back over D-Bus. Screenshots and the log land in testdata/out/desktop/.
#
# UPDATE_SCREENSHOT=1 (make screenshot) plays the README's desktop instead
# (TestReadmeScreenshots) and copies its pictures into docs/: on a taller
# screen, for the whole menu, with xfce4-notifyd, the panel's own
# notification daemon, which draws a notification's actions as buttons
# (dunst only marks them), a window manager (xfwm4), which keeps the
# bubbles off the panel, and xdotool, to open the menu with the mouse.
#
# DESKTOP_RUN picks tests (go test -run) and DESKTOP_COUNT runs them that
# many times (go test -count): a new test runs ten times before it is
# trusted.
#
# Missing packages are installed when running as root (CI); otherwise the
# test is skipped with a message saying what to install.
set -eu

cd "$(dirname "$0")/../.."
repo=$(pwd)
packages="xvfb xfce4-panel dbus-x11 dunst libnotify-bin imagemagick"
tools="Xvfb xfce4-panel dbus-launch dunst import"
screen=800x200
notifyd=dunst
if [ "${UPDATE_SCREENSHOT:-}" = 1 ]; then
	packages="$packages xdotool xfce4-notifyd xfwm4"
	tools="$tools xdotool xfwm4"
	screen=1024x1000
	notifyd=$(ls /usr/lib/*/xfce4/notifyd/xfce4-notifyd 2>/dev/null | head -n 1)
	[ -n "$notifyd" ] || missing=" xfce4-notifyd"
	export HUD_SCREENSHOTS=1 DESKTOP_RUN="${DESKTOP_RUN:-TestReadmeScreenshots}"
fi

missing="${missing:-}"
for tool in $tools; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "desktop-test: installing$missing ($packages)"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
		[ "$notifyd" = dunst ] || notifyd=$(ls /usr/lib/*/xfce4/notifyd/xfce4-notifyd | head -n 1)
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
display=${DESKTOP_DISPLAY:-90}
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 "${screen}x24" -nolisten tcp >"$work/xvfb.log" 2>&1 &
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
if [ "${UPDATE_SCREENSHOT:-}" = 1 ]; then
	xfwm4 --compositor=off >"$work/xfwm4.log" 2>&1 &
	pids="$pids $!"
fi
"$notifyd" >"$work/notifyd.log" 2>&1 &
pids="$pids $!"

# Wait for the tray host to own the StatusNotifierWatcher name.
i=0
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
	org.freedesktop.DBus.NameHasOwner string:org.kde.StatusNotifierWatcher 2>/dev/null | grep -q true; do
	i=$((i + 1)); [ $i -gt 200 ] && { echo "desktop-test: the panel's tray never started"; exit 1; }
	sleep 0.05
done
# And the notification daemon, so no notification reaches another one
# that the bus would start for the name.
i=0
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
	org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q true; do
	i=$((i + 1)); [ $i -gt 200 ] && { echo "desktop-test: the notification daemon never started"; exit 1; }
	sleep 0.05
done

out="$repo/testdata/out/desktop"
rm -rf "$out"
mkdir -p "$out"
HUD_DESKTOP=1 HUD_BIN="$repo/bin/hud" HUD_HOOK_BIN="$repo/bin/hud-hook" HUD_OUT="$out" \
	HOME="$work/home" go test -count=${DESKTOP_COUNT:-1} -timeout 5m -v -run "${DESKTOP_RUN:-.}" ./scripts/desktop/ >"$out/test.log" 2>&1 || true
cat "$out/test.log"
status=$(grep -c '^FAIL\|^--- FAIL\|^panic:' "$out/test.log" || true)
if [ "$status" != 0 ]; then
	echo "desktop-test: FAILED (screenshots in $out)"
	exit 1
fi
# The README's pictures: only on request (make screenshot), so a test run
# leaves the tree clean.
if [ "${UPDATE_SCREENSHOT:-}" = 1 ]; then
	cp "$out/readme-notification.png" docs/screenshot.png
	cp "$out/readme-menu.png" docs/menu.png
fi
echo "desktop-test: ok (screenshots in $out)"
