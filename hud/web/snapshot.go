package web

import (
	"slices"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
)

// Snapshot is what the tray drew, as the page shows it.
type Snapshot struct {
	// Summary sums the sessions up ("1 waiting · 2 working"); Status is
	// the menu's line when there are none.
	Summary, Status string
	Sessions        []Card
	// Accounts are the usage limits, a line each.
	Accounts []string
	// Section is the menu's section: the work sessions, the next break and
	// its actions, the answering switch.
	Section []Action
	// Today is the menu's line of the day ("Today: agents waited …").
	Today string
	// Timeline says a timeline of the day can be drawn.
	Timeline bool
}

// Card is one session on the page.
type Card struct {
	Key, Name, State string
	// Since is when State began; Age its label at the snapshot.
	Since      time.Time
	Age        string
	WaitingFor string
	// Detail is the activity line ("3/7 todos · 12 files · main*"), and
	// Context the context window's fill ("context 87 % (174k of 200k
	// tokens)").
	Detail, Context string
	// Dialog, when set, is offered with its choices.
	Dialog *answer.Request
}

// Action is a row of the menu's section; one with a Key can be clicked.
type Action struct {
	Key, Label string
}

// Cards are the page's cards of sessions, in their order (the tray's:
// waiting first), with their labels at now.
func Cards(sessions []view.Session, now time.Time) []Card {
	out := make([]Card, 0, len(sessions))
	for i := range sessions {
		s := &sessions[i]
		c := Card{Key: s.Key, Name: view.WithHost(s.Host, view.WithAgent(s.Name(), s.Agent)), State: string(s.State),
			Since: s.Since, Age: text.Age(now.Sub(s.Since)), Dialog: s.Dialog}
		if s.State == store.StateWaiting {
			c.WaitingFor = text.Line(s.WaitingFor, 0)
		}
		if s.Activity != nil {
			c.Detail = s.Activity.Summary()
		}
		c.Context = s.ContextLong()
		out = append(out, c)
	}
	return out
}

func (s Snapshot) equal(o Snapshot) bool {
	return s.Summary == o.Summary && s.Status == o.Status && s.Today == o.Today && s.Timeline == o.Timeline &&
		slices.Equal(s.Accounts, o.Accounts) && slices.Equal(s.Section, o.Section) &&
		slices.EqualFunc(s.Sessions, o.Sessions, func(a, b Card) bool {
			return a.Key == b.Key && a.Name == b.Name && a.State == b.State && a.Age == b.Age &&
				a.WaitingFor == b.WaitingFor && a.Detail == b.Detail && a.Context == b.Context && sameDialog(a.Dialog, b.Dialog)
		})
}

func sameDialog(a, b *answer.Request) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID
}
