package app

import "errors"

// UI is what the loop draws on: the tray icon, its texts and its menu. The
// systray adapter implements it; every method must return promptly.
type UI interface {
	// SetIcon shows the icon: png for Linux and as a fallback, template
	// (black and alpha) for the macOS menu bar.
	SetIcon(png, template []byte)
	// SetTitle sets the text beside the icon (macOS; "" for none).
	SetTitle(title string)
	SetTooltip(tooltip string)
	// SetMenu shows m. The adapter keeps a pool of items and shows, hides
	// and relabels them; it never rebuilds the menu. m.Sessions holds at
	// most SessionRows rows and m.Section at most SectionRows: the loop
	// fits the menu to the pools.
	SetMenu(m Menu)
	// Events delivers the person's actions and the adapter's news.
	Events() <-chan Event
	// Quit takes the tray down; Run returns afterwards.
	Quit()
}

// Menu is the tray menu's content, top to bottom. Fixed items follow the
// rows: a separator, Section (when not empty) and another separator, then
// "Open debug log" and "Quit".
type Menu struct {
	// Status is a line that cannot be clicked ("No Claude Code sessions");
	// "" hides it.
	Status string
	// Hooks offers to install the hooks ("Hooks not installed — click to
	// install"); "" hides it. Clicking it sends KeyInstallHooks.
	Hooks string
	// Sessions are one row per live session, attention first.
	Sessions []Row
	// More sums up the sessions that did not fit; "" hides it.
	More string
	// Section holds rows other parts of the HUD fill (break reminders).
	Section []Row
}

// Row is one clickable menu item. Clicking it sends an Event with its Key.
type Row struct {
	Key      string
	Label    string
	Tooltip  string
	Disabled bool
}

// EventKind says what an Event reports.
type EventKind int

const (
	// Clicked: the person clicked the item with Event.Key.
	Clicked EventKind = iota + 1
	// MenuOpened: the menu is being shown; labels should be current.
	MenuOpened
	// NoTrayHost: nothing on this desktop shows tray icons
	// (Event.Message says what to do about it).
	NoTrayHost
)

// Event is something that happened in the UI.
type Event struct {
	Kind    EventKind
	Key     string
	Message string
}

// Keys of the fixed menu items; session rows use "session:<id>".
const (
	KeyInstallHooks = "install-hooks"
	KeyDebugLog     = "debug-log"
	KeyQuit         = "quit"
	sessionPrefix   = "session:"
)

// ErrNoSessionBus means the desktop has no D-Bus session bus: on Linux
// neither a tray icon nor a notification can be shown.
var ErrNoSessionBus = errors.New("no D-Bus session bus")

// NoTrayHostMessage is what the person reads when nothing shows tray
// icons on their desktop.
const NoTrayHostMessage = "No system tray found: nothing on this desktop shows tray icons " +
	"(no org.kde.StatusNotifierWatcher on the session bus). hud keeps running and still " +
	"sends notifications. On GNOME, enable the \"AppIndicator and KStatusNotifierItem Support\" " +
	"extension; the icon then appears by itself."
