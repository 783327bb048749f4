package notify

import (
	"strings"
	"unicode"
)

// Bounds on what a notification shows. Daemons cut long text anyway, but
// some grow the bubble to fit first; a prompt can be pages long.
const (
	maxTitle = 80
	maxBody  = 240
)

// plain flattens s to one line without control characters (a prompt may
// hold newlines, tabs, escape sequences) and cuts it to max runes with an
// ellipsis.
func plain(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = strings.TrimRightFunc(string(r[:max-1]), unicode.IsSpace) + "…"
	}
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
