// Package breaks is the HUD's port of Vibe Check: micro breaks (eyes and
// wrists), hydration and full breaks (stand up, walk), timed from what the
// person and Claude actually do.
//
// Two writers share the state: the hook records activity (a session starts,
// a prompt is sent, an answer ends) and the tray fires the reminders on
// time. Both go through [Files], which keeps Vibe Check's own state file,
// ~/.claude/vibe-check-state.json, in exactly its schema, replaced
// atomically under an exclusive flock on vibe-check-state.json.lock, so a
// Vibe Check install and the HUD can even run side by side.
//
// The rules themselves are pure functions of a [State], a time and the
// [Settings]: [OnSessionStart], [OnPrompt] and [OnStop] for the hook's
// activity, and [Decide] for the tray, which also knows what the sessions
// are doing ([Sessions]): a reminder is held while any session waits on the
// person, and delivered early while Claude works. The person's own choices
// (snooze, skip, pause) live in a separate file, ~/.claude/hud-breaks.json
// ([Prefs]), so Vibe Check's file keeps its exact schema.
//
// [Scheduler] is what `hud break` and the hook call: it loads, decides,
// fires and saves in one locked step. [Section] is the tray app's side: its
// Update takes the live sessions and returns when to call again, and its
// Rows and Clicked are the menu section ("Next: eye break in 12m",
// "Take a break now", "Snooze 10 min", "Skip this one", "Pause reminders
// for 1 hour / until tomorrow").
package breaks
