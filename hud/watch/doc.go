// Package watch tells the tray when the files it shows may have changed:
// the store (~/.capacitor/sessions.json), the lock directories and Claude
// Code's own <pid>.json files (~/.claude/sessions/), and optionally the
// settings file and the other files the caller names (Options.Files). Each
// path comes from the package that owns the file (the resolver's layout,
// the break reminders), never from a name written here.
//
// It watches the PARENT directories with fsnotify and filters on the base
// name, because the hook replaces sessions.json by renaming a temp file
// over it: a watch on the file itself would follow the old inode and go
// deaf after the first write. Temp files, the store's flock file and
// anything else in those directories are ignored.
//
// Events are coalesced: a trailing debounce of a few milliseconds (the
// hook's temp-write + rename arrives as one burst) bounded by a maximum
// delay, so a steady stream of writes cannot starve the tray. The tray's
// target is under 20 ms from the hook's exit to the tray's change, so the
// debounce is short on purpose. Each [Change] says what changed; a
// [Change] with Rescan set means "trust nothing, re-read everything": the
// kernel queue overflowed, the watcher reported an error, or a watched
// directory was removed (it is recreated and watched again).
//
// There is no polling: between changes the watcher costs nothing.
package watch
