// Package config reads the HUD's settings file,
// $XDG_CONFIG_HOME/hud/config.toml (default ~/.config/hud/config.toml).
//
// Every threshold of the tray, the notifications, the break reminders and
// the timed work sessions lives in that one file. It is created on first
// run from a commented template (see [Template]) that lists every key with
// its default and one line of why.
//
// Reading never fails: a file that does not parse gives the defaults and a
// [Problem] naming the line; an unknown key or a bad value gives a Problem
// and that key's default. Vibe Check's environment variables
// (VIBE_CHECK_MICRO_INTERVAL and friends, in seconds) override [breaks], so
// people who already tuned Vibe Check keep their settings.
//
// The package reads no globals: the caller passes the home directory and a
// getenv function.
//
// The rule between the two packages: settings holds the values (types,
// defaults, limits) and links no TOML parser, so every package the hook
// links (the hook itself, breaks, work sessions) imports settings, as may
// any package that needs a type, a default or a limit alone; config is the
// file, read and written with a TOML parser whose start-up the hook would
// pay on every event, and only the tray and the command line link it. Its
// aliases of the settings' types let the code that loads the file name
// what it loaded with one import. Every Load of the file leaves the hook a
// copy of what it read (settings.SnapshotName).
package config
