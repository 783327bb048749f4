// Package focus brings a Claude Code session's terminal forward when the
// person clicks it in the tray: the exact tmux pane, kitty window or
// WezTerm pane, and the terminal's window on the desktop, else the project
// folder. The window is found by the Claude process's ancestry and raised
// through the desktop's compositor where hud knows one (Compositor: sway,
// Hyprland, KWin, GNOME Shell with hud's extension; the only way on
// Wayland), else through X11, or on macOS through Terminal and iTerm2 by
// its tty.
//
// Each way is a Backend in a file of its own, tried in order until one
// succeeds; each runs under a timeout, and the tray starts the whole chain
// off its event loop (Focuser.Start), so a terminal that does not answer
// never freezes the menu.
//
// Read instead of changed, the same places say whether the person is
// looking at a session's terminal already (Looking, which the tray asks
// before a notification), and the X server says how long the person has
// been away from the keyboard (Idle, for the away push; the compositor's
// word is internal/wayland's).
package focus
