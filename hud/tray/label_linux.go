package tray

import "strings"

// menuLabel is label as a com.canonical.dbusmenu "label": there, an
// underscore marks the next character as the item's access key and is
// not shown (GTK and Qt hosts alike), so "~/.ssh/id_rsa" would read
// "~/.ssh/idrsa" and a key press could pick a choice a model named
// "_Yes". A doubled underscore shows one: every one is doubled, and the
// menu shows the text as written.
func menuLabel(label string) string { return strings.ReplaceAll(label, "_", "__") }
