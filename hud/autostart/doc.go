// Package autostart starts the tray at login: a LaunchAgent on macOS, an
// XDG autostart entry on Linux (and the other free desktops). Each is one
// file in the person's home; turning autostart off removes it.
//
// The renderers are pure functions of the executable's path, so both are
// tested on every OS; only the choice of which one applies is per OS
// (target_darwin.go, target_other.go).
package autostart
