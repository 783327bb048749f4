package xdg

import "testing"

func TestDesktopIs(t *testing.T) {
	for _, tc := range []struct {
		desktops, name string
		want           bool
	}{
		{"GNOME", "GNOME", true},
		{"ubuntu:GNOME", "GNOME", true},
		{"KDE", "kde", true},
		{"GNOME-Flashback:GNOME", "GNOME", true},
		{"GNOME-Flashback", "GNOME", false},
		{"", "GNOME", false},
		{"XFCE", "KDE", false},
	} {
		if got := DesktopIs(tc.desktops, tc.name); got != tc.want {
			t.Errorf("DesktopIs(%q, %q) = %v", tc.desktops, tc.name, got)
		}
	}
}
