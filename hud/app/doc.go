// Package app is the tray application's event loop, pure of systray: one
// App under a mutex, one select loop over file-watcher changes, menu
// clicks and a single timer set to the next moment the picture changes by
// itself. It draws through the small UI interface (implemented by hud/tray
// over fyne.io/systray, and by a fake in tests), so the whole loop runs in
// tests without a desktop.
//
// Nothing polls: the store and lock directory are re-read when the watcher
// says they changed (or may have: an overflow), and the only timer is the
// earliest of a "since" label ticking over, a fresh record expiring, and a
// notification reminder falling due.
package app
