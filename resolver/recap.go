package resolver

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/store"
)

// recapTail is how much of a transcript's end is searched for a recap:
// Claude appends it after the turn it sums up, so it is near the end.
const recapTail = 256 << 10

// Recap is the newest recap Claude Code wrote into rec's transcript at or
// after since: recent releases append a system entry of subtype
// away_summary ("while you were away …") when the person comes back to a
// terminal they left. Raw text from a file: the caller sanitizes it. ""
// when there is none, or no transcript hud may read.
func Recap(l paths.Layout, rec *store.Record, since time.Time) string {
	if rec == nil {
		return ""
	}
	path := claudeTranscript(l, rec)
	if path == "" {
		return ""
	}
	tail, err := safefile.ReadTail(path, recapTail, safefile.NoFollow)
	if err != nil {
		return ""
	}
	return lastRecap(tail, since)
}

// lastRecap finds the newest away_summary entry of tail at or after since.
func lastRecap(tail []byte, since time.Time) string {
	lines := bytes.Split(tail, []byte{'\n'})
	for i := len(lines) - 1; i >= 0; i-- {
		if !bytes.Contains(lines[i], []byte(`"away_summary"`)) {
			continue
		}
		var e struct {
			Type      string    `json:"type"`
			Subtype   string    `json:"subtype"`
			Content   string    `json:"content"`
			Timestamp time.Time `json:"timestamp"`
		}
		if json.Unmarshal(lines[i], &e) != nil || e.Type != "system" || e.Subtype != "away_summary" {
			continue
		}
		if e.Timestamp.Before(since) {
			return ""
		}
		return e.Content
	}
	return ""
}
