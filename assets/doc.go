// Package assets holds the files the HUD ships inside its binary: the tray
// icons (PNG, drawn by ./gen and embedded) and short texts.
//
// There is one icon per aggregate state — waiting, working, compacting,
// ready, idle and unsure — each with its own shape as well as its own colour,
// plus variants carrying a count badge (2–9 and 9+) for when several sessions
// are live. Every icon comes in colour (Linux, drawn on a dark outline so it
// reads on light and dark panels) and as a macOS template image (black and
// alpha; the menu bar tints it).
//
// To change the icons, edit gen/main.go and run `go generate ./assets`
// (or `make generate`); the PNGs under png/ are generated, never edited.
package assets
