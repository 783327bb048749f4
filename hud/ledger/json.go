package ledger

import (
	"encoding/json"
	"time"
)

// The JSON form of a History (`hud history --json`): times in RFC 3339,
// durations in seconds. Its names are a contract with scripts: add, never
// rename.
type (
	jsonHistory struct {
		From     time.Time      `json:"from"`
		To       time.Time      `json:"to"`
		Total    jsonStats      `json:"total"`
		Sessions []jsonTimeline `json:"sessions"`
		Away     []jsonSpan     `json:"away"`
	}
	jsonTimeline struct {
		Key     string     `json:"key"`
		Name    string     `json:"name"`
		Host    string     `json:"host,omitempty"`
		Agent   string     `json:"agent,omitempty"`
		Project string     `json:"project,omitempty"`
		Stats   jsonStats  `json:"stats"`
		Spans   []jsonSpan `json:"spans"`
		Waits   []jsonWait `json:"waits"`
	}
	jsonSpan struct {
		From  time.Time `json:"from"`
		To    time.Time `json:"to"`
		State string    `json:"state"`
	}
	jsonWait struct {
		From     time.Time `json:"from"`
		To       time.Time `json:"to"`
		For      string    `json:"for,omitempty"`
		How      string    `json:"how"`
		Choice   string    `json:"choice,omitempty"`
		Response float64   `json:"response_s"`
	}
	jsonStats struct {
		Working    float64 `json:"working_s"`
		Waiting    float64 `json:"waiting_s"`
		Waits      int     `json:"waits"`
		Median     float64 `json:"median_response_s"`
		P90        float64 `json:"p90_response_s"`
		Longest    float64 `json:"longest_response_s"`
		LongestFor string  `json:"longest_for,omitempty"`
	}
)

// MarshalJSON writes h in its JSON form.
func (h History) MarshalJSON() ([]byte, error) {
	out := jsonHistory{From: h.From, To: h.To, Total: h.Total.json(), Sessions: []jsonTimeline{}, Away: spansJSON(h.Absences)}
	for _, t := range h.Timelines {
		jt := jsonTimeline{Key: t.Key, Name: t.DisplayName(), Host: t.Host, Agent: t.Agent, Project: t.Project,
			Stats: t.Stats.json(), Spans: spansJSON(t.Spans), Waits: []jsonWait{}}
		for _, w := range t.Waits {
			jt.Waits = append(jt.Waits, jsonWait{From: w.From, To: w.To, For: w.For, How: w.How, Choice: w.Choice, Response: seconds(w.Response())})
		}
		out.Sessions = append(out.Sessions, jt)
	}
	return json.Marshal(out)
}

func spansJSON(spans []Span) []jsonSpan {
	out := make([]jsonSpan, len(spans))
	for i, s := range spans {
		out[i] = jsonSpan{From: s.From, To: s.To, State: s.State}
	}
	return out
}

func (s Stats) json() jsonStats {
	return jsonStats{Working: seconds(s.Working), Waiting: seconds(s.Waiting), Waits: s.Waits,
		Median: seconds(s.Median), P90: seconds(s.P90), Longest: seconds(s.Longest), LongestFor: s.LongestFor}
}

// seconds is d in seconds, to the millisecond.
func seconds(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }
