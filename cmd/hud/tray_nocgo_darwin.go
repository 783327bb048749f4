//go:build darwin && !cgo

package main

import "github.com/capacitor-hud/hud/hud/app"

// trayRunner is nil in a macOS build without cgo (a cross-compile from
// Linux, as `make dist` does): the menu bar needs Cocoa, which only cgo
// reaches. Every other command works; `hud` alone says what to do.
var trayRunner app.ShowFunc
