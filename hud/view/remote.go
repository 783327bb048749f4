package view

import (
	"time"

	"github.com/capacitor-hud/hud/hud/text"
)

// Remote is how one remote machine's stream stands, for the surfaces that
// show sessions: its sessions come as Sessions with its Host, and this
// says whether they can be trusted (the machine is reachable) and, when
// not, why and since when.
type Remote struct {
	// Host is the name the person gave the machine ("devbox").
	Host string
	// Up is set while the machine's stream is live.
	Up bool
	// Connecting is set until the machine first answers or fails: neither
	// its sessions nor an alarm yet.
	Connecting bool
	// Since is when the machine became reachable or unreachable.
	Since time.Time
	// Problem says what is wrong with the remote's hud and what to do
	// about it ("hud not found on the remote — install it, or …"); ""
	// while Up or when the machine is merely unreachable.
	Problem string
	// Detail is ssh's own word on the last failure ("Connection
	// refused"), made plain text; "" for none.
	Detail string
}

// Down reports whether the machine's sessions cannot be seen now, for a
// reason worth showing (not while it is first connecting).
func (r *Remote) Down() bool { return !r.Up && !r.Connecting }

// Status is the remote's state as one line, for menus and tables:
// "devbox: unreachable since 10:42 (Connection refused)".
func (r *Remote) Status(now time.Time) string {
	host := text.Line(r.Host, 40)
	switch {
	case r.Up:
		return host + ": connected"
	case r.Connecting:
		return host + ": connecting…"
	case r.Problem != "":
		return host + ": " + text.Line(r.Problem, 0)
	}
	line := host + ": unreachable"
	if !r.Since.IsZero() {
		line += " since " + clock(r.Since, now)
	}
	if d := text.Line(r.Detail, 80); d != "" {
		line += " (" + d + ")"
	}
	return line
}

// clock is a moment as a person reads it in a status: "10:42" today,
// "Mon 10:42" within the week, else the date.
func clock(t, now time.Time) string {
	t = t.In(now.Location())
	switch {
	case t.YearDay() == now.YearDay() && t.Year() == now.Year():
		return t.Format("15:04")
	case now.Sub(t) < 6*24*time.Hour:
		return t.Format("Mon 15:04")
	}
	return t.Format("2006-01-02 15:04")
}
