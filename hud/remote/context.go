package remote

import (
	"time"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/resolver"
)

// maxTokens bounds a remote's token counts: ten times the largest window
// of any model, so a count no model could have is not shown.
const maxTokens = 10 * resolver.LongWindow

// remoteContext is a remote session's context window in use, made safe to
// show: counts within bounds (else none at all), a window above zero, the
// model's name plain text, the sources only the ones this hud knows, and a
// time in the future taken as now. The share is computed here again from
// the counts, never taken from the stream.
func remoteContext(j *status.JSONContext, now time.Time) *resolver.Context {
	if j == nil || j.Tokens < 0 || j.Tokens > maxTokens || j.Window <= 0 || j.Window > maxTokens {
		return nil
	}
	return &resolver.Context{
		Tokens: j.Tokens, Window: j.Window, Model: text.Line(j.Model, 80), At: past(j.At.Time, now),
		From:       known(j.From, resolver.ContextFromTranscript, resolver.ContextFromStatusLine, resolver.ContextFromRollout),
		WindowFrom: known(j.WindowFrom, resolver.WindowFromStatusLine, resolver.WindowFromModel, resolver.WindowFromRollout),
	}
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
