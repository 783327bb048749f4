package text

import "strings"

// Markup makes s safe where it is read as markup: the body of a
// freedesktop notification (a subset of HTML that dunst, GNOME Shell and
// Plasma render) and waybar's Pango text. &, < and > become entities, so
// a tag in a command, a question or a project's name shows as written
// instead of hiding what follows it ("<span size='1'>"). Quotes need
// nothing: no attribute value is ever built from text.
func Markup(s string) string { return markupEscaper.Replace(s) }

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
