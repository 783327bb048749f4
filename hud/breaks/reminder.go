package breaks

import (
	"fmt"
	"time"

	"github.com/capacitor-hud/hud/hud/text"

	"github.com/capacitor-hud/hud/assets"
)

// Reminder is one break reminder to show the person.
type Reminder struct {
	Kind Kind
	// Due is when it came (or comes) due; FiredAt when it was shown.
	Due, FiredAt time.Time
	// Early: delivered before it was due because Claude is working.
	Early bool
	// Duration is how long the break should last.
	Duration time.Duration
	// Tip is the suggestion to show, from assets/tips.
	Tip string
}

// Title is the notification's title.
func (r *Reminder) Title() string {
	if r.Early {
		return fmt.Sprintf("Claude is busy — good moment for a %s %s", text.Duration(r.Duration), r.Kind.Label())
	}
	switch r.Kind {
	case Hydration:
		return "Time for some water"
	case Full:
		return fmt.Sprintf("Time for a %s break: stand up", text.Duration(r.Duration))
	}
	return fmt.Sprintf("Time for a %s eye break", text.Duration(r.Duration))
}

// Body is the notification's text: the tip.
func (r *Reminder) Body() string { return r.Tip }

// String is the reminder on one line, for logs and the terminal.
func (r *Reminder) String() string {
	if r.Tip == "" {
		return r.Title()
	}
	return r.Title() + ". " + r.Tip
}

// newReminder completes a reminder of kind k fired at now with the tip at
// index tip of its category.
func newReminder(k Kind, due, now time.Time, early bool, tip int, set Settings) *Reminder {
	r := &Reminder{Kind: k, Due: due, FiredAt: now, Early: early, Duration: set.Duration[k]}
	if tips := assets.Tips(k.TipCategory()); len(tips) > 0 {
		r.Tip = tips[tip%len(tips)]
	}
	return r
}
