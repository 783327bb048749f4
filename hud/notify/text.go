package notify

import (
	"strings"

	"github.com/capacitor-hud/hud/hud/text"
)

// Bounds on what a notification shows. Daemons cut long text anyway, but
// some grow the bubble to fit first; a prompt can be pages long.
const (
	maxTitle = 80
	maxBody  = 240
)

// plain puts s on one line for a notification (hud/text.Line: a prompt
// may hold newlines, tabs, escape sequences) and cuts it to max runes.
func plain(s string, max int) string {
	s = text.Line(s, max)
	// Text passed as a command argument (terminal-notifier on macOS)
	// must not read as an option. A NON-BREAKING HYPHEN looks the same and
	// is printable, so osascript's quoting leaves it alone.
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		s = "\u2011" + rest
	}
	return s
}

// Title is a notification's summary as hud sends it: one line, bounded.
// The freedesktop spec makes the summary plain text, so it is not escaped.
func Title(s string) string { return plain(s, maxTitle) }

// Body is a notification's body as hud sends it, whatever sends it (the
// Desktop for the plain notifications, the tray's notes for those with
// buttons): one line, bounded and, where the daemon renders markup,
// escaped (text.Markup).
func Body(s string) string {
	s = plain(s, maxBody)
	if bodyIsMarkup {
		s = text.Markup(s)
	}
	return s
}
