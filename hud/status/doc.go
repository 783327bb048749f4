// Package status turns what the resolver found into what `hud status`
// prints. A View is built once from the live sessions; each output format
// is one function rendering it (see Formats), so a new format (tmux,
// waybar) or a new field (activity) is added in one place and every format
// sees the same data.
package status
