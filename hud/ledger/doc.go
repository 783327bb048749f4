// Package ledger is hud's memory: every state a session showed and when,
// what each wait asked and how it ended, and the person's absences.
//
// One process at a time records the local sessions: a lock holder (one
// lives while each agent does, so the ledger is written whether or not a
// tray runs) takes the recorder's flock and follows the same files, through
// the same resolver, as the tray (Follow). The tray adds what only it
// knows: an answer given from its menu or `hud answer`, the sessions of
// remote machines, and the person's absences. Each writer appends whole
// lines (Append) to a file per local day under ~/.capacitor/ledger; a
// reader (Read) skips a line it cannot parse and loses nothing else.
//
// Fold turns entries into per-session timelines and wait statistics (the
// menu's "Today" line, `hud history`); Absence sums up a time away (the
// "while you were away" notification, `hud away`).
package ledger
