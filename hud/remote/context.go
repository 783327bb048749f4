package remote

import (
	"time"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/resolver"
)

// remoteContext is a remote session's context window in use, made safe to
// show: held to the rule every local one is held to (Context.Plausible,
// else none at all), the model's name plain text, the sources only the ones this hud knows, and a
// time in the future taken as now. The share is computed here again from
// the counts, never taken from the stream.
func remoteContext(j *status.JSONContext, now time.Time) *resolver.Context {
	if j == nil {
		return nil
	}
	c := &resolver.Context{
		Tokens: j.Tokens, Window: j.Window, Model: text.Line(j.Model, 80), At: past(j.At.Time, now),
		From:       known(j.From, resolver.ContextFromTranscript, resolver.ContextFromStatusLine, resolver.ContextFromRollout),
		WindowFrom: known(j.WindowFrom, resolver.WindowFromStatusLine, resolver.WindowFromModel, resolver.WindowFromRollout),
	}
	if !c.Plausible() {
		return nil
	}
	return c
}

// known is s when it is one of the values, else "".
func known(s string, values ...string) string {
	for _, v := range values {
		if s == v {
			return s
		}
	}
	return ""
}
