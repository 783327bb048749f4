//go:build !darwin || cgo

package main

import (
	"github.com/capacitor-hud/hud/hud/app"
	"github.com/capacitor-hud/hud/hud/tray"
)

// trayRunner is the real tray: pure Go over D-Bus on Linux, Cocoa through
// cgo on macOS.
var trayRunner app.ShowFunc = tray.Run
