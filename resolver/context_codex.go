package resolver

import (
	"bytes"
	"encoding/json"
	"time"
)

// Codex's own figures, from its rollout file: each answer is followed by
// a token_count event with the turn's token usage, the model's context
// window as Codex counts it (model_context_window, the share of the
// model's window Codex lets a conversation fill) and the account's rate
// limits as the API's x-codex-primary-* / -secondary-* headers gave them
// (primary the 5-hour window, secondary the weekly one).
const (
	ContextFromRollout = "rollout"
	WindowFromRollout  = "rollout"
)

// codexTokenCount is what codexRunway reads of a token_count event.
type codexTokenCount struct {
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
			Primary   *codexWindow `json:"primary"`
			Secondary *codexWindow `json:"secondary"`
		} `json:"rate_limits"`
	} `json:"payload"`
}

// codexWindow is one of Codex's rate-limit windows: resets_at in Unix
// seconds.
type codexWindow struct {
	UsedPercent *float64 `json:"used_percent"`
	ResetsAt    *float64 `json:"resets_at"`
}

func (w *codexWindow) limit() *RateLimit {
	if w == nil {
		return nil
	}
	l, err := (&rateLimitInput{UsedPercentage: w.UsedPercent, ResetsAt: w.ResetsAt}).limit()
	if err != nil {
		return nil
	}
	return l
}

// codexRunway finds the newest token_count event in a rollout's tail: the
// context in use (the last answer's total tokens, what Codex counts as in
// its window), and the account's limits when the event carries them.
func codexRunway(tail []byte) (Context, *Account, bool) {
	lines := bytes.Split(tail, []byte{'\n'})
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !bytes.Contains(l, []byte(`"token_count"`)) {
			continue
		}
		var e codexTokenCount
		if json.Unmarshal(l, &e) != nil || e.Type != "event_msg" || e.Payload.Type != "token_count" {
			continue
		}
		info := e.Payload.Info
		if info == nil || info.Last == nil || info.Window <= 0 || info.Last.TotalTokens < 0 {
			continue
		}
		c := Context{Tokens: info.Last.TotalTokens, Window: info.Window, At: e.Timestamp.UTC(),
			From: ContextFromRollout, WindowFrom: WindowFromRollout}
		var a *Account
		if rl := e.Payload.RateLimits; rl != nil {
			a = &Account{Agent: AgentCodex, At: c.At, FiveHour: rl.Primary.limit(), SevenDay: rl.Secondary.limit()}
			if a.FiveHour == nil && a.SevenDay == nil {
				a = nil
			}
		}
		return c, a, true
	}
	return Context{}, nil, false
}

// codexContext is codexRunway of rec's rollout, read bounded and never
// through a link, with the account its home is.
func codexContext(l Layout, rec *Record) (Context, *Account, bool) {
	path, home := codexRollout(l, rec)
	c, a, ok := tailFigures(path, home, codexRunway)
	if a != nil {
		a.ConfigDir = home // a copy: cachedTail keeps its own
	}
	return c, a, ok
}
