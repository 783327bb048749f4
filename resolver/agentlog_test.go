package resolver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestTranscriptOpinion: the moments Copilot's and Gemini's transcripts
// decide.
func TestTranscriptOpinion(t *testing.T) {
	end := TurnEnd{At: ts("2026-11-23T15:28:16.127Z")}
	cases := []struct {
		name    string
		state   store.State
		updated string
		want    store.State
		ok      bool
	}{
		{"waiting on the denied dialog", store.StateWaiting, "2026-11-23T15:28:12.262Z", store.StateReady, true},
		{"working when Esc stopped it", store.StateWorking, "2026-11-23T15:28:12.262Z", store.StateReady, true},
		{"a hook after the end wins", store.StateWorking, "2026-11-23T15:28:20.000Z", "", false},
		{"ready already", store.StateReady, "2026-11-23T15:28:12.262Z", "", false},
		{"compacting is the hooks'", store.StateCompacting, "2026-11-23T15:28:12.262Z", "", false},
	}
	for _, c := range cases {
		rec := &store.Record{SessionID: "s", State: c.state, UpdatedAt: store.At(ts(c.updated))}
		state, since, ok := TurnEndOpinion(rec, end)
		if ok != c.ok || state != c.want || (ok && !since.Equal(end.At)) {
			t.Errorf("%s: %s %v %v, want %s %v", c.name, state, since, ok, c.want, c.ok)
		}
	}
}

// tailLog is an AgentLog of one file that keeps the tail it was handed.
type tailLog struct {
	path string
	got  *[]byte
}

func (l tailLog) Path(paths.Layout, *store.Record) (string, string) {
	return l.path, filepath.Dir(filepath.Dir(l.path))
}

func (l tailLog) TurnEnd(tail []byte, modified time.Time) (TurnEnd, bool) {
	*l.got = tail
	return TurnEnd{At: modified}, true
}

// TestLoadTurnEndsWholeLines: a log longer than what is read is handed to
// its agent from its first whole line, and an agent with no log, or no
// logs at all, reads nothing.
func TestLoadTurnEndsWholeLines(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "agent", "logs", "log.jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	line := `{"n":"` + strings.Repeat("x", 1000) + `"}` + "\n"
	if err := os.WriteFile(path, []byte(strings.Repeat(line, 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []byte
	logs := func(agent string) AgentLog {
		if agent == "other" {
			return tailLog{path, &got}
		}
		return nil
	}
	st := store.New()
	st.Sessions["s"] = &store.Record{SessionID: "s", Agent: "other", State: store.StateWorking}
	st.Sessions["c"] = &store.Record{SessionID: "c", State: store.StateWorking}
	ends, dirs := LoadTurnEnds(paths.Layout{Home: home}, st, logs)
	if len(ends) != 1 || len(dirs) != 1 || dirs[0] != filepath.Dir(path) {
		t.Fatalf("ends %v dirs %v, want the other agent's only", ends, dirs)
	}
	if len(got) == 0 || len(got)%len(line) != 0 || !strings.HasPrefix(string(got), `{"n":`) {
		t.Errorf("handed %d bytes starting %.10q, want whole lines", len(got), got)
	}
	if ends, dirs := LoadTurnEnds(paths.Layout{Home: home}, st, nil); ends != nil || dirs != nil {
		t.Errorf("no logs read %v %v", ends, dirs)
	}
}
