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
	// Text passed as a command argument (notify-send, terminal-notifier)
	// must not read as an option. A NON-BREAKING HYPHEN looks the same and
	// is printable, so osascript's quoting leaves it alone.
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		s = "\u2011" + rest
	}
	return s
}

// escapeMarkup makes s safe for a daemon that renders the freedesktop
// body markup (a subset of HTML): &, < and > become entities. Quotes need
// nothing, since no attribute values are built.
func escapeMarkup(s string) string {
	return markupEscaper.Replace(s)
}

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
