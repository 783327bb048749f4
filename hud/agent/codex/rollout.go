package codex

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

// rolloutLine is what TurnEnd reads of a rollout line.
type rolloutLine struct {
	Timestamp time.Time `json:"timestamp"`
	Type      string    `json:"type"`
	Payload   struct {
		Type  string `json:"type"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"payload"`
}

// TurnEnd finds the last event of the tail that starts or ends a turn,
// and returns it when it ends one.
func (rollout) TurnEnd(tail []byte, _ time.Time) (resolver.TurnEnd, bool) {
	lines := bytes.Split(tail, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !bytes.Contains(l, []byte(`"event_msg"`)) {
			continue
		}
		var rl rolloutLine
		if json.Unmarshal(l, &rl) != nil || rl.Type != "event_msg" {
			continue // not an event
		}
		switch rl.Payload.Type {
		case "task_started":
			return resolver.TurnEnd{}, false
		case "task_complete", "turn_aborted":
			end := resolver.TurnEnd{At: rl.Timestamp}
			if rl.Payload.Error != nil {
				end.Error, _, _ = strings.Cut(rl.Payload.Error.Message, "\n")
			}
			return end, !end.At.IsZero()
		}
	}
	return resolver.TurnEnd{}, false
}

// tokenCount is what Runway reads of a token_count event: the turn's
// token usage, the model's context window as Codex counts it
// (model_context_window, the share of the model's window Codex lets a
// conversation fill) and the account's rate limits as the API's
// x-codex-primary-* / -secondary-* headers gave them (primary the 5-hour
// window, secondary the weekly one).
type tokenCount struct {
	Timestamp time.Time `json:"timestamp"`
	Type      string    `json:"type"`
	Payload   struct {
		Type string `json:"type"`
		Info *struct {
			Last *struct {
				TotalTokens int `json:"total_tokens"`
			} `json:"last_token_usage"`
			Window int `json:"model_context_window"`
		} `json:"info"`
		RateLimits *struct {
			Primary   *window `json:"primary"`
			Secondary *window `json:"secondary"`
		} `json:"rate_limits"`
	} `json:"payload"`
}

// window is one of Codex's rate-limit windows: its length in minutes,
// resets_at in Unix seconds.
type window struct {
	UsedPercent *float64 `json:"used_percent"`
	Minutes     *float64 `json:"window_minutes"`
	ResetsAt    *float64 `json:"resets_at"`
}

// limit is the window learnt at at, nil when unknown
// (resolver.NewRateLimit holds it to its bounds, its length too).
func (w *window) limit(at time.Time) *resolver.RateLimit {
	if w == nil {
		return nil
	}
	var length time.Duration // unknown: the resolver takes it as its longest
	if m := w.Minutes; m != nil && *m > 0 && *m <= 1e6 {
		length = time.Duration(*m * float64(time.Minute))
	}
	return resolver.NewRateLimit(w.UsedPercent, w.ResetsAt, length, at)
}

// Runway finds the newest token_count event in a rollout's tail: the
// context in use (the last answer's total tokens, what Codex counts as in
// its window), and the account's limits when the event carries them. The
// figures are handed on as read: the resolver holds the context to its
// bounds (resolver.Context.Plausible), so a newest count out of them is
// unknown, never an older event's.
func (rollout) Runway(tail []byte) (resolver.Context, *resolver.Account, bool) {
	lines := bytes.Split(tail, []byte{'\n'})
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !bytes.Contains(l, []byte(`"token_count"`)) {
			continue
		}
		var e tokenCount
		if json.Unmarshal(l, &e) != nil || e.Type != "event_msg" || e.Payload.Type != "token_count" {
			continue
		}
		info := e.Payload.Info
		if info == nil || info.Last == nil {
			continue // no count in this event
		}
		c := resolver.Context{Tokens: info.Last.TotalTokens, Window: info.Window, At: e.Timestamp.UTC(),
			From: resolver.ContextFromRollout, WindowFrom: resolver.WindowFromRollout}
		var a *resolver.Account
		if rl := e.Payload.RateLimits; rl != nil {
			a = &resolver.Account{Agent: Name, At: c.At, FiveHour: rl.Primary.limit(c.At), SevenDay: rl.Secondary.limit(c.At)}
			if a.FiveHour == nil && a.SevenDay == nil {
				a = nil
			}
		}
		return c, a, true
	}
	return resolver.Context{}, nil, false
}
