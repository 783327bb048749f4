// Package history draws what the ledger remembers of a period (a
// ledger.History) for a person: Text is the timeline and the figures
// `hud history` prints in a terminal, SVG the same timeline as an image.
//
// Both are pure: they take the History, the moment it is drawn at (whose
// location is the one hours are told in) and where to write. Names and
// subjects come from a file other programs write, so every one goes
// through hud/text before it is shown, and through XML escaping in SVG.
// Every duration is written with text.Duration.
package history
