package resolver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Lines as Codex CLI 0.169.0 writes them to its rollout file (trimmed).
const (
	rolloutStarted  = `{"timestamp":"2026-11-23T15:37:30.978Z","ordinal":27,"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`
	rolloutUser     = `{"timestamp":"2026-11-23T15:37:31.028Z","ordinal":29,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fail now"}]}}`
	rolloutFailed   = `{"timestamp":"2026-11-23T15:37:31.068Z","ordinal":31,"type":"event_msg","payload":{"type":"task_complete","turn_id":"t2","last_agent_message":null,"error":{"message":"{\"error\":{\"message\":\"stand-in: the request failed on purpose\"}}"}}}`
	rolloutComplete = `{"timestamp":"2026-11-23T15:37:20.500Z","ordinal":20,"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"ok"}}`
)

func TestLastTurnEnd(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  bool
		error string
	}{
		{"an error ends the turn", []string{rolloutComplete, rolloutStarted, rolloutUser, rolloutFailed}, true, "stand-in: the request failed on purpose"},
		{"a turn running", []string{rolloutComplete, rolloutStarted, rolloutUser}, false, ""},
		{"a cut first line", []string{rolloutFailed[20:], rolloutStarted}, false, ""},
		{"nothing", nil, false, ""},
	}
	for _, c := range cases {
		end, ok := lastTurnEnd([]byte(strings.Join(c.lines, "\n") + "\n"))
		if ok != c.want || !strings.Contains(end.Error, c.error) {
			t.Errorf("%s: %+v %v", c.name, end, ok)
		}
	}
}

// TestTurnEndOpinion: a Codex turn that ended in an API error, which
// fires no hook, shows ready once its rollout says it ended; an earlier
// turn's end changes nothing.
func TestTurnEndOpinion(t *testing.T) {
	home := t.TempDir()
	rollout := filepath.Join(home, "rollout-x.jsonl")
	write := func(lines ...string) {
		if err := os.WriteFile(rollout, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	prompted := time.Date(2026, 11, 23, 15, 37, 31, 0, time.UTC)
	rec := &Record{SessionID: "s", Agent: AgentCodex, State: StateWorking, CWD: "/p",
		TranscriptPath: rollout, UpdatedAt: At(prompted), StateChangedAt: At(prompted)}
	store := &Store{Version: StoreVersion, Sessions: map[string]*Record{"s": rec}}
	resolve := func() Session {
		snap := Snapshot{Store: store, TurnEnds: loadTurnEnds(store)}
		all := ResolveAll(snap, prompted.Add(2*time.Second), func(int, int64) bool { return true })
		if len(all) != 1 {
			t.Fatalf("%d sessions", len(all))
		}
		return all[0]
	}

	write(rolloutComplete, rolloutStarted, rolloutUser)
	if s := resolve(); s.State != StateWorking || s.TurnEnd != nil {
		t.Errorf("running turn: %s", s.State)
	}
	write(rolloutComplete, rolloutStarted, rolloutUser, rolloutFailed)
	if s := resolve(); s.State != StateReady || s.TurnEnd == nil || !s.Since.Equal(time.Date(2026, 11, 23, 15, 37, 31, 68e6, time.UTC)) {
		t.Errorf("failed turn: %s since %v", s.State, s.Since)
	}
	rec.UpdatedAt = At(prompted.Add(time.Second)) // a newer prompt
	if s := resolve(); s.State != StateWorking {
		t.Errorf("an earlier turn's end: %s", s.State)
	}
	rec.Agent = "" // Claude's transcripts are not read this way
	rec.UpdatedAt = At(prompted)
	if got := loadTurnEnds(store); len(got) != 0 {
		t.Errorf("read a Claude transcript: %v", got)
	}
}

// loadTurnEnds is LoadTurnEnds for a store whose transcripts' paths do not
// depend on the home (Codex's come from the records).
func loadTurnEnds(store *Store) map[string]TurnEnd {
	ends, _ := LoadTurnEnds(Layout{}, store)
	return ends
}

// A Codex record's transcript_path is read only when it names a rollout
// file, and never through a link: a record could name any file.
func TestCodexRolloutPathChecked(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.jsonl")
	if err := os.WriteFile(real, []byte(rolloutStarted+"\n"+rolloutFailed+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "rollout-link.jsonl")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(dir, "rollout-real.jsonl")
	if err := os.Link(real, renamed); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		read bool
	}{
		{real, false},              // not a rollout's name
		{link, false},              // a link
		{"rollout-x.jsonl", false}, // not absolute
		{renamed, true},
	} {
		rec := &Record{SessionID: "s", Agent: AgentCodex, State: StateWorking, TranscriptPath: tt.path}
		got := loadTurnEnds(&Store{Version: StoreVersion, Sessions: map[string]*Record{"s": rec}})
		if _, read := got["s"]; read != tt.read {
			t.Errorf("%s: read %v, want %v", tt.path, read, tt.read)
		}
	}
}
