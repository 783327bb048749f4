// Package settings holds the HUD's settings as values: their types, their
// defaults, Vibe Check's environment overrides, and the hook's way of
// reading them ([ForHook]).
//
// Package config reads and writes the settings file, config.toml, with a
// TOML parser; this package links none, because the hook imports it and
// runs on every event of every Claude session. The hook reads the copy of
// the settings that config leaves next to the file ([SnapshotName]).
package settings
