// Package notify decides when the person hears about their Claude sessions
// and sends the desktop notifications.
//
// The rules are pure, in [Tracker]: it is given the live
// sessions each time they are resolved, and the clock, and returns what to
// send and the one moment it next needs to be asked (a still-waiting
// reminder coming due), so the app sets one timer and never polls:
//
//   - a session starts waiting for the person: notify at once, with the
//     project and what it waits for;
//   - it is still waiting after notifications.still_waiting_after: ONE
//     reminder;
//   - a turn that ran at least notifications.done_after_turn ends (working
//     → ready): "done".
//
// Each is switched in the settings file ([config.Notifications]).
//
// Sending goes through the small [Sender] interface so the rules and the
// app are testable with a [Recorder]. [Desktop] sends over the session
// bus on Linux (under a deadline, subscribed to no signal) and through
// beeep on macOS, and makes text that came from prompts and paths safe for
// the daemon that shows it: some Linux daemons render a subset of HTML in
// the body.
package notify
