// Package status turns what the resolver found into what `hud status`
// prints. A View is built once from the live sessions (one view.Session
// each, as the menu and the notifications see them); each output format
// is one function rendering it (see Formats), so a new format (tmux,
// waybar) is added in one place and every format sees the same data.
package status
