// Package focus tests the click on a session as a person would see it:
// under Xvfb with a real EWMH window manager (xfwm4) and real terminal
// windows, a stand-in Claude process runs the real hook in one terminal,
// another terminal is opened on top, and after the click the first
// terminal's window must be the active one, read back from the X server:
//
//   - an xterm, found by Claude's ancestry (`hud focus`);
//   - the same, clicked in the tray's menu over D-Bus, with xfce4-panel
//     hosting the tray;
//   - a tmux pane on its own server, shown in an xterm on another tmux
//     window: the pane becomes current, the xterm active;
//   - a kitty tab behind another: kitty switches to it.
//
// And the notifications that fit where the person looks, read with
// dbus-monitor on a bus of the test's own with dunst as the daemon: none
// for a session whose xterm (or tmux pane in an xterm, or kitty window) is in front, one
// for a session elsewhere, the reminder after the person left the
// terminal, none while dunst is paused; and the away push from the real
// tray to a loopback listener, none while the mouse moves (XTEST), one
// push_after after it stopped (the X server's idle time).
//
// The same on Wayland, headless, each compositor asked for what has the
// focus: sway (in a user namespace, since it refuses root) with waybar
// hosting the tray and mako the notifications, a stand-in Claude in foot
// (native Wayland) and another in an XWayland xterm: hud focus and a
// click in the menu focus each, a tmux pane in a foot too; a session
// without a window says so; no notification for the focused terminal,
// none under mako's do-not-disturb mode; the away push from the
// compositor's idle notifications while wtype types, after, and under
// do-not-disturb. KWin (a copy of kwin_wayland --virtual) with Konsole and
// xterm, keys typed through KDE's fake input, and GNOME Shell (--headless
// in a mount namespace of its own, so root only, with hud's extension
// installed by hud install), keys typed through Mutter's RemoteDesktop,
// the same way. The away pushes run in parallel: they mostly wait.
//
// make focus-test runs it (HUD_FOCUS=1); without that the tests skip.
package focus
