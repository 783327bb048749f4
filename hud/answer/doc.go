// Package answer lets a person answer Claude Code's permission dialogs and
// questions from the tray, through Claude Code's own interface for it: the
// PermissionRequest hook's decision output.
//
// Claude Code runs the PermissionRequest hook while its dialog is already
// on screen and usable, and keeps the first answer it gets: the person's
// key in the terminal or the hook's output. So the hook may wait for the
// tray without holding anyone up. When answering is on and a tray listens,
// hud-hook offers the dialog (a Request) over a Unix socket in hud's 0700
// directory and waits, bounded; the tray shows the Request's choices, and
// an answer names the exact request it was given for. Whatever the tray
// sends, the hook turns only a choice key into output, built from its own
// payload: a tray can pick one of the dialog's choices, never write a
// decision of its own.
//
// Both ends check the other's uid (SO_PEERCRED, LOCAL_PEERCRED): the
// socket is 0600 in a 0700 directory, and a peer of another uid is refused
// all the same.
package answer
