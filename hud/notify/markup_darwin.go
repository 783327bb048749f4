package notify

// bodyIsMarkup: macOS shows notification text as it is (osascript and
// terminal-notifier render no markup), so entities would show literally.
const bodyIsMarkup = false
