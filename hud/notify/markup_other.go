//go:build !darwin

package notify

// bodyIsMarkup: the freedesktop notification spec lets daemons render a
// subset of HTML in the body (dunst, GNOME Shell, Plasma do), so text from
// prompts and paths is escaped. The summary (title) is always plain text
// by the spec, so it is not.
const bodyIsMarkup = true
