// Package resolver holds the file formats the HUD shares between its writer
// (the hook) and its readers (the tray, `hud status`): the v3 session store,
// the lock directories kept by the lock holder, and Claude Code's own session
// registry. On top of them it resolves which sessions are alive and in which
// state.
//
// Everything here is pure except the thin loaders (Load*), which only read
// files. Process liveness is never checked in this package: callers pass a
// function (see Liveness), so the rules can be table-tested and the package
// cross-compiles everywhere.
package resolver
