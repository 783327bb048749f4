package cli

import "runtime"

// noTrayHint says how to get a hud with the tray, for a build without one
// (Env.Tray is nil).
func noTrayHint() string {
	if runtime.GOOS == "darwin" {
		// The macOS archives of a release are cross-compiled without cgo,
		// and the menu bar needs Cocoa through cgo.
		return "the menu bar needs a build on a Mac: 'brew install capacitor-hud/tap/hud', or 'make build' " +
			"with the Xcode command line tools; hud status, hud watch and the hooks work without it"
	}
	return "build bin/hud with 'make build'"
}
