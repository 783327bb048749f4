package breaks

import (
	"fmt"
	"time"

	"github.com/capacitor-hud/hud/hud/config/settings"
)

// Kind is a category of break. The order is the priority: when several are
// due at once, the highest Kind fires (full > hydration > micro).
type Kind int

// The break kinds, lowest priority first.
const (
	Micro Kind = iota
	Hydration
	Full
)

// kinds lists every Kind, lowest priority first.
var kinds = [...]Kind{Micro, Hydration, Full}

// String is the name Vibe Check stores in pending_break.type.
func (k Kind) String() string {
	switch k {
	case Micro:
		return "micro"
	case Hydration:
		return "hydration"
	case Full:
		return "full"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// TipCategory is the key of tip_index (and the tips file) for k.
func (k Kind) TipCategory() string {
	switch k {
	case Micro:
		return "micro_break"
	case Hydration:
		return "hydration"
	case Full:
		return "full_break"
	}
	return ""
}

// Label is how a person reads the kind: "eye break".
func (k Kind) Label() string {
	switch k {
	case Micro:
		return "eye break"
	case Hydration:
		return "water break"
	case Full:
		return "full break"
	}
	return k.String()
}

// ParseKind is the inverse of Kind.String.
func ParseKind(s string) (Kind, bool) {
	for _, k := range kinds {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// Settings are the thresholds of the break rules. [DefaultSettings] are
// Vibe Check's defaults; the tray and the hook fill them from the [breaks]
// table of the settings file (see FromConfig).
type Settings struct {
	// Enabled turns the reminders on; activity is recorded either way.
	Enabled bool
	// Interval and Duration are indexed by Kind: how often each break comes
	// and how long a pause before the next prompt counts as having taken it.
	Interval [3]time.Duration
	Duration [3]time.Duration
	// GapThreshold: a pause at least this long between an answer and the
	// next prompt is a break the person took on their own.
	GapThreshold time.Duration
	// StaleThreshold: idle at least this long starts a fresh state.
	StaleThreshold time.Duration
	// DedupWindow: never two reminders closer than this, across processes.
	DedupWindow time.Duration
	// EarlyWindow: a reminder due within this window is delivered at once
	// while Claude works. Zero turns early delivery off.
	EarlyWindow time.Duration
	// Quiet holds reminders inside a daily window of local time.
	Quiet settings.QuietHours
	// HookDelivery lets the hook put a due reminder into Claude's context
	// when the tray is not running.
	HookDelivery bool
}

// DefaultSettings are Vibe Check's defaults (settings.Default's [breaks]).
func DefaultSettings() Settings { return FromConfig(settings.Default().Breaks) }

// FromConfig takes the thresholds from the [breaks] table of the settings
// file (with the VIBE_CHECK_* overrides already applied by config.Load).
func FromConfig(c settings.Breaks) Settings {
	return Settings{
		Enabled:        c.Enabled,
		Interval:       [3]time.Duration{Micro: c.MicroInterval, Hydration: c.HydrationInterval, Full: c.FullInterval},
		Duration:       [3]time.Duration{Micro: c.MicroDuration, Hydration: c.HydrationDuration, Full: c.FullDuration},
		GapThreshold:   c.GapThreshold,
		StaleThreshold: c.StaleThreshold,
		DedupWindow:    c.DedupWindow,
		EarlyWindow:    c.EarlyDeliveryWindow,
		Quiet:          c.QuietHours,
		HookDelivery:   c.HookDelivery,
	}
}
