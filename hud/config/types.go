package config

import "github.com/capacitor-hud/hud/hud/config/settings"

// The settings' types and defaults live in package settings, which links no
// TOML parser, so that the hook (which runs on every event of every
// session) can use them without paying for one: see settings.ForHook.
// These names let the code that loads the file through config name what it
// loaded without a second import; packages the hook links import settings
// itself.
type (
	Config        = settings.Config
	Notifications = settings.Notifications
	Tray          = settings.Tray
	Breaks        = settings.Breaks
	WorkSession   = settings.WorkSession
	Activity      = settings.Activity
	Answer        = settings.Answer
	History       = settings.History
	Serve         = settings.Serve
	QuietHours    = settings.QuietHours
	Percent       = settings.Percent
	Problem       = settings.Problem
)

// The values of notifications.push_detail.
const (
	PushSession = settings.PushSession
	PushSubject = settings.PushSubject
)

// Default returns the settings used when the file says nothing.
func Default() Config { return settings.Default() }

// ParseQuietHours reads "HH:MM-HH:MM"; the empty string means none.
func ParseQuietHours(text string) (QuietHours, error) { return settings.ParseQuietHours(text) }
