// Package desktop is the tray's test as a person would see it: under
// Xvfb, with a real session bus, a real tray host (xfce4-panel) and a real
// notification daemon (dunst), it starts bin/hud, plays recorded Claude
// Code events through bin/hud-hook from stand-in Claude processes, and
// reads back over D-Bus what the panel shows after each step: the
// registered item, its tooltip, icon and title, its menu, and the
// notifications. It saves screenshots to testdata/out/desktop.
//
// scripts/desktop/run.sh (make desktop-test) sets the desktop up and runs
// it; without HUD_DESKTOP=1 the tests skip.
package desktop
