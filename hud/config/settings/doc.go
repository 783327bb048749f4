// Package settings holds the HUD's settings as values: their types, their
// defaults and limits, Vibe Check's environment overrides, and the hook's
// way of reading them ([ForHook]).
//
// It links no TOML parser, so that every package the hook links (the hook
// runs on every event of every Claude session) can import it; any other
// package may too, for a type, a default or a limit alone. Reading and
// writing the file, config.toml, is package config's, which only the tray
// and the command line link; the hook reads the copy of the settings that
// config leaves next to the file ([SnapshotName]).
package settings
