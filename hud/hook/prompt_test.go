package hook

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/store"
)

// TestPromptRestartsWorkingSince: a turn whose end fired no hook (a
// Copilot denial; the transcript showed it ready) leaves the record
// working; the person's next prompt starts a new working spell, so the
// surfaces say "working 2s", not the minutes since the last one. A prompt
// the agent injects itself continues the turn it belongs to.
func TestPromptRestartsWorkingSince(t *testing.T) {
	started := t0.Add(-5 * time.Minute)
	prev := &store.Record{SessionID: "s", State: store.StateWorking, StateChangedAt: store.At(started)}
	cases := []struct {
		name, source, prompt string
		want                 time.Time
	}{
		{"the person's prompt", "", "hello again", t0},
		{"an injected one", "", "<task-notification>done</task-notification>", started},
	}
	for _, c := range cases {
		r := Transition(prev, &Event{SessionID: "s", HookEventName: EventUserPromptSubmit, Source: c.source, Prompt: c.prompt}, t0)
		if r.State != store.StateWorking || !r.StateChangedAt.Equal(c.want) {
			t.Errorf("%s: %s since %v, want working since %v", c.name, r.State, r.StateChangedAt.Time, c.want)
		}
	}
}
