package resolver

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"
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

// codexRollout is the rollout file a Codex session's hooks name
// (transcript_path), taken only where and as Codex keeps its rollouts:
// ~/.codex/sessions/<yyyy>/<mm>/<dd>/rollout-<time>-<id>.jsonl. The tray
// reads that file and watches its directory, so a payload naming any
// other path gets neither. (A Codex home moved by CODEX_HOME is not
// followed: the hook's environment says where it is, the tray's need not.)
func codexRollout(l Layout, rec *Record) (path, home string) {
	p := rec.TranscriptPath
	home = filepath.Join(l.Home, ".codex")
	root := filepath.Join(home, "sessions") + string(filepath.Separator)
	rest, ok := strings.CutPrefix(p, root)
	if !ok || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return "", ""
	}
	parts := strings.Split(rest, string(filepath.Separator))
	if len(parts) != 4 || len(parts[0]) != 4 || len(parts[1]) != 2 || len(parts[2]) != 2 ||
		!isDigits(parts[0]) || !isDigits(parts[1]) || !isDigits(parts[2]) ||
		!strings.HasPrefix(parts[3], "rollout-") || filepath.Ext(parts[3]) != ".jsonl" {
		return "", ""
	}
	return p, home
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
