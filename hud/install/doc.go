// Package install wires bin/hud-hook into a Claude Code settings.json and
// takes it out again, without disturbing anything else in the file.
//
// A settings file is the person's own: it holds their permissions, their
// other hooks, their environment, in an order they chose. So the file is
// edited as an ordered tree that remembers the original bytes of every
// value; only the objects and arrays on the path to a change are written
// anew (with the file's own indentation), everything else comes out byte
// for byte as it went in. A file that is not strict JSON is refused, never
// "repaired". Every write is preceded by a backup and done by rename, and
// running install twice changes nothing the second time.
//
// On request it also points Claude Code's statusLine at `hud statusline`,
// re-run every second on clients that read refreshInterval, never
// replacing a status line the person has.
//
// A Claude config directory other than ~/.claude (CLAUDE_CONFIG_DIR) that
// install wires is remembered in ~/.capacitor/config-dirs.json
// (RememberConfigDir), so every reader follows its sessions.
//
// Inspect is the read-only check of one file; HooksProblem sums up the
// user settings of every followed config directory in a few words ("Hooks
// not installed") for the tray, `hud status` and `hud doctor`, and Checker
// caches it for the tray, which asks on every redraw.
//
// On GNOME it also puts hud's GNOME Shell extension in place (InstallGNOME,
// the format for the running GNOME Shell), the one way hud can raise and
// see windows there; the person switches it on once, and a plain
// uninstall takes it away (UninstallGNOME).
//
// The other coding agents are wired with the same care by their own
// packages (hud/agent/<name>), each describing its files as a Setup built
// from what this package offers: a hooks file in Claude Code's shape
// (ClaudeHooks), a file of hud's own listing each event's handlers
// (FlatHooks), a text file edited byte by byte (EditFile), and read-only
// views (Read, OurHandlers, JSONScalar). The tree stays unexported, and no
// agent is known here by name. Since hud-hook links this package through
// the agents, nothing here is computed at package initialisation.
package install
