package resolver

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/hud/safefile"
)

// TurnEnd is the end of a session's last turn as the agent's own
// transcript records it: the second opinion for the turns whose end fires
// no hook. Codex fires neither Stop nor Interrupt when a turn ends in an
// API error (a refused request, a dropped stream after its retries): its
// rollout file (~/.codex/sessions/…/rollout-….jsonl, the record's
// transcript_path) still ends the turn with a task_complete event, its
// error attached.
type TurnEnd struct {
	At    time.Time
	Error string
}

// maxRolloutTail bounds the read of a rollout file: its last events are
// all the opinion needs, and the file grows with the whole conversation.
const maxRolloutTail = 64 << 10

// LoadTurnEnds reads the last turn end of each Codex session that shows a
// turn running (working, waiting), keyed by session id. Files it cannot
// read, and sessions whose rollout records no end, are left out.
func LoadTurnEnds(store *Store) map[string]TurnEnd {
	var out map[string]TurnEnd
	if store == nil {
		return nil
	}
	for id, rec := range store.Sessions {
		if rec.Agent != AgentCodex || (rec.State != StateWorking && rec.State != StateWaiting) ||
			!filepath.IsAbs(rec.TranscriptPath) || filepath.Ext(rec.TranscriptPath) != ".jsonl" {
			continue
		}
		// The path is the agent's own file, named in its hook payload;
		// it is read bounded, never blocking, and only as a regular file.
		tail, err := safefile.ReadTail(rec.TranscriptPath, maxRolloutTail, safefile.Follow)
		if err != nil {
			continue
		}
		if end, ok := lastTurnEnd(tail); ok {
			if out == nil {
				out = map[string]TurnEnd{}
			}
			out[id] = end
		}
	}
	return out
}

// rolloutLine is what lastTurnEnd reads of a rollout line.
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

// lastTurnEnd finds the last event of the tail that starts or ends a
// turn, and returns it when it ends one.
func lastTurnEnd(tail []byte) (TurnEnd, bool) {
	lines := bytes.Split(tail, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !bytes.Contains(l, []byte(`"event_msg"`)) {
			continue
		}
		var rl rolloutLine
		if json.Unmarshal(l, &rl) != nil || rl.Type != "event_msg" {
			continue // the cut first line, or not an event
		}
		switch rl.Payload.Type {
		case "task_started":
			return TurnEnd{}, false
		case "task_complete", "turn_aborted":
			end := TurnEnd{At: rl.Timestamp}
			if rl.Payload.Error != nil {
				end.Error = firstLine(rl.Payload.Error.Message)
			}
			return end, !end.At.IsZero()
		}
	}
	return TurnEnd{}, false
}

// TurnEndOpinion decides whether the transcript's turn end overrides the
// state of rec: a turn the record still shows running (working, waiting)
// that the transcript ended after the record last heard of it is over,
// and the session ready. An end from before the record's last event is
// an earlier turn's.
func TurnEndOpinion(rec *Record, end TurnEnd) (State, time.Time, bool) {
	if rec == nil || (rec.State != StateWorking && rec.State != StateWaiting) {
		return "", time.Time{}, false
	}
	if !end.At.After(rec.UpdatedAt.Time) {
		return "", time.Time{}, false
	}
	return StateReady, end.At.UTC(), true
}
