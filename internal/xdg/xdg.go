// Package xdg reads what the freedesktop specifications put in the
// environment, for every part of hud that adapts to the desktop.
package xdg

import "strings"

// DesktopIs reports whether desktops, the value of XDG_CURRENT_DESKTOP (a
// colon-separated list, most specific first: "ubuntu:GNOME"), names the
// desktop name, in any case.
func DesktopIs(desktops, name string) bool {
	for d := range strings.SplitSeq(desktops, ":") {
		if strings.EqualFold(d, name) {
			return true
		}
	}
	return false
}
