package view

import (
	"fmt"
	"strconv"

	"github.com/capacitor-hud/hud/resolver"
)

// ContextShort is the session's context window in use as every compact
// surface writes it ("ctx 87%"), "" when unknown: the menu line, the
// status column, the status bars and the status line.
func (s *Session) ContextShort() string {
	if s.Context == nil {
		return ""
	}
	return "ctx " + strconv.Itoa(s.Context.Percent()) + "%"
}

// ContextLong is the same with its tokens ("context 87 % (174k of 200k
// tokens)"), for a tooltip; "" when unknown.
func (s *Session) ContextLong() string {
	c := s.Context
	if c == nil {
		return ""
	}
	return fmt.Sprintf("context %d %% (%s of %s tokens)", c.Percent(), Tokens(c.Tokens), Tokens(c.Window))
}

// Tokens writes a count of tokens as a person reads it: "950", "174k",
// "1M", "1.2M".
func Tokens(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.Itoa((n+500)/1000) + "k"
	case n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}

// Fullest is the session whose context window is the fullest, nil when
// none is known: what a status bar with room for one figure shows.
func Fullest(sessions []Session) *Session {
	var top *Session
	for i := range sessions {
		s := &sessions[i]
		if s.Context != nil && (top == nil || s.Context.Percent() > top.Context.Percent()) {
			top = s
		}
	}
	return top
}

// contextOf is resolver.Context of a resolved session, copied so a view
// never shares it.
func contextOf(s *resolver.Session) *resolver.Context {
	if s.Context == nil {
		return nil
	}
	c := *s.Context
	return &c
}
