package tray

import (
	"fyne.io/systray"

	"github.com/capacitor-hud/hud/hud/app"
)

// checkSessionBus: macOS has a menu bar and no D-Bus.
func checkSessionBus() error { return nil }

// watchTrayHost: the menu bar is always there.
func watchTrayHost(func(app.Event)) {}

// setTitle shows title beside the icon in the menu bar.
func setTitle(title string) { systray.SetTitle(title) }

// waitExported: the Cocoa status item exists once onReady runs.
func waitExported() {}

// menuLabel: an NSMenuItem's title is shown as it is.
func menuLabel(label string) string { return label }
