// Package store is ~/.capacitor/sessions.json, the hook's record of every
// session: its format (Store, Record, State, Timestamp and the session id
// rule), its reader (Load, Decode) and its one writer (Update, which the
// hook runs on every event).
//
// The file is written under an exclusive flock on sessions.json.lock and
// replaced by rename, so a reader never takes a lock and never sees half
// a file. Update keeps untouched records as the bytes it read (Table),
// since the hook pays for the whole store on every tool call; what it
// writes is byte for byte what Encode writes for the same store. A file
// that is not a v3 store is moved aside, never thrown away, and a bad
// record costs that record alone. docs/state-files/store.md describes the
// format field by field.
package store
