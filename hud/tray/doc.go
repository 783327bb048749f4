// Package tray is the thin adapter between the app's UI interface and
// fyne.io/systray, and the only package that imports systray (it needs cgo
// and Cocoa on macOS, so everything else stays cross-compilable without
// it). It keeps a fixed pool of menu items and shows, hides and relabels
// them, forwards clicks to the app's event loop, and on Linux checks that
// the desktop has a session bus and a tray host at all.
package tray
