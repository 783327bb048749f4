// Package focus tests the click on a session as a person would see it:
// under Xvfb with a real EWMH window manager (xfwm4) and real terminal
// windows (xterm), a stand-in Claude process runs the real hook in one
// terminal, a second terminal is opened on top, and `hud focus` (what a
// click on the session in the tray runs) must make the first terminal's
// window the active one, read back from the X server. The same through
// tmux: the pane becomes tmux's current one and the xterm attached to its
// session the active window.
//
// make focus-test runs it (HUD_FOCUS=1); without that the tests skip.
package focus
