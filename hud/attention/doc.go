// Package attention fits hud's notifications to what the person is doing.
//
// [Gate] stands between the notification rules (hud/notify) and the
// desktop: at the moment a notification is to be shown it asks, under a
// deadline and off the tray's loop, whether the desktop says Do Not
// Disturb ([DND]: the notification server's own inhibition, dunst paused,
// GNOME's banners off) and whether the person is looking at the session's
// terminal already (hud/focus.Looking); either holds the bubble and its
// sound back. The menu and the icon are not its business: they always
// show every session. A "still waiting" reminder is asked again when it
// comes due, so a person who left the terminal meanwhile hears it.
//
// The sound of a notification that is shown says what it is about: one
// freedesktop sound-theme name for "waiting for you", another for "done"
// ([Sounds]), played by the desktop's player.
//
// [Push] sends one message per wait to a phone (an ntfy topic, any
// webhook) when a session has waited notifications.push_after and the
// person has been away from the keyboard at least as long ([Idle]).
package attention
