// Package app is the tray application: Main wires its parts (the file
// watcher, the settings file, notifications, break reminders, work
// sessions, the hooks check) and runs its event loop, App. The loop is
// pure of systray: one goroutine owns its state and selects over
// file-watcher changes, menu clicks and a single timer set to the next
// moment the picture changes by itself. It draws through the small UI
// interface (implemented by hud/tray over fyne.io/systray, and by a fake
// in tests), so the whole loop runs in tests without a desktop; the menu's
// text comes from hud/present.
//
// Nothing polls: the store and lock directory are re-read when the watcher
// says they changed (or may have: an overflow), and the only timer is the
// earliest of a "since" label ticking over, a fresh record expiring, and a
// notification reminder falling due.
package app
