// Package hud is the root of the HUD's own packages: the hook (hud/hook);
// the tray application (hud/app), with its presenter (hud/present) and
// its systray adapter (hud/tray); one view of a session (hud/view), which
// the menu, `hud status` (hud/status) and the notifications (hud/notify)
// all render; and the command line (hud/cli), whose `hud run` calls
// app.Main. See docs/architecture.md for the whole map.
package hud
