// Package hud is the root of the HUD's own packages: the hook (hud/hook),
// the tray and its pure parts (hud/app, hud/present, hud/tray), and the
// command line (hud/cli). See docs/architecture.md.
package hud
