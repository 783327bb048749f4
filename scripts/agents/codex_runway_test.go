package agents

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// TestCodexRunway: a turn whose answer reports a known count of tokens
// (the stand-in's "context: <n>") shows as the session's context in use
// in `hud status --json`, over the window Codex itself records in its
// rollout's token_count event (model_context_window), and the rate limits
// the stand-in sent in its x-codex-* headers show as the Codex home's
// usage.
func TestCodexRunway(t *testing.T) {
	r, codex := codexRig(t)
	p := r.startCodex(codex, "codex")
	for _, input := range []int{50_000, 120_000} {
		r.say(p, "context: "+strconv.Itoa(input))
		// What the answer reported: its input and output tokens (5).
		tokens := input + 5
		r.expectStatus("context: "+strconv.Itoa(input)+" → its share of Codex's window", func(doc statusDoc) bool {
			if len(doc.Sessions) != 1 || doc.Sessions[0].Context == nil {
				return false
			}
			c := doc.Sessions[0].Context
			return c.Tokens == tokens && c.Window == codexWindow &&
				math.Abs(float64(c.Percent)-float64(tokens)*100/codexWindow) <= 1
		})
	}
	r.expectStatus("the Codex home's usage, from the x-codex-* headers", func(doc statusDoc) bool {
		for _, a := range doc.Accounts {
			if a.Agent == "codex" && a.FiveHour != nil && a.FiveHour.UsedPercent == 12 && a.SevenDay != nil && a.SevenDay.UsedPercent == 34 {
				return true
			}
		}
		return false
	})

	// Ended as a person ends it, so nothing of Codex's is left writing
	// in the scenario's HOME when it is removed.
	r.say(p, "/exit")
	r.expect("/exit → gone", none)
	r.expectNoLocks("/exit → lock released")
}

// codexWindow is the window Codex 0.169.0 gives the stand-in's model in
// its token_count events: 95 % of the 272,000 tokens it knows the model
// by, the share it lets a conversation fill.
const codexWindow = 258_400

// statusDoc is what the runway scenarios read of `hud status --json`.
type statusDoc struct {
	Sessions []struct {
		Agent   string `json:"agent"`
		Context *struct {
			Tokens  int `json:"tokens"`
			Window  int `json:"window"`
			Percent int `json:"percent"`
		} `json:"context"`
	} `json:"sessions"`
	Accounts []struct {
		Agent    string `json:"agent"`
		FiveHour *struct {
			UsedPercent float64 `json:"used_percentage"`
		} `json:"five_hour"`
		SevenDay *struct {
			UsedPercent float64 `json:"used_percentage"`
		} `json:"seven_day"`
	} `json:"accounts"`
}

// expectStatus waits, as expect does, until `hud status --json` satisfies
// ok.
func (r *rig) expectStatus(step string, ok func(statusDoc) bool) {
	r.t.Helper()
	r.expect(step, func([]session) bool {
		out, err := r.hud("status", "--json")
		var doc statusDoc
		return err == nil && json.Unmarshal([]byte(out), &doc) == nil && ok(doc)
	})
}
