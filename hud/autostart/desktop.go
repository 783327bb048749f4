package autostart

import (
	"path/filepath"
	"strings"
)

// DesktopPath is $XDG_CONFIG_HOME/autostart/hud.desktop, with
// XDG_CONFIG_HOME defaulting to ~/.config as the XDG Base Directory
// specification says (a relative value is invalid and ignored).
func DesktopPath(home, xdgConfigHome string) string {
	dir := xdgConfigHome
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "autostart", "hud.desktop")
}

// RenderDesktop returns the XDG autostart entry that starts exe when the
// person logs in to a desktop session.
func RenderDesktop(exe string) []byte {
	return []byte(`[Desktop Entry]
Type=Application
Name=hud
Comment=What your Claude Code sessions are doing, in the system tray
Exec=` + execArg(exe) + `
Terminal=false
X-GNOME-Autostart-enabled=true
`)
}

// execArg quotes one argument of an Exec key as the Desktop Entry
// specification asks: arguments with reserved characters go in double
// quotes, inside which ", `, $ and \ take a backslash; the whole value is
// then a string, where a backslash is itself escaped; and % is doubled
// because %f, %u, ... are field codes.
func execArg(s string) string {
	s = strings.ReplaceAll(s, "%", "%%")
	if !strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`=") {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '`', '$':
			b.WriteString(`\\`) // one backslash for the quoting, escaped for the string
			b.WriteRune(r)
		case '\\':
			b.WriteString(`\\\\`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
