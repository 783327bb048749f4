package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// Lines as Codex CLI 0.169.0 writes them to its rollout file (trimmed).
const (
	rolloutStarted  = `{"timestamp":"2026-11-23T15:37:30.978Z","ordinal":27,"type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}`
	rolloutUser     = `{"timestamp":"2026-11-23T15:37:31.028Z","ordinal":29,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fail now"}]}}`
	rolloutFailed   = `{"timestamp":"2026-11-23T15:37:31.068Z","ordinal":31,"type":"event_msg","payload":{"type":"task_complete","turn_id":"t2","last_agent_message":null,"error":{"message":"{\"error\":{\"message\":\"stand-in: the request failed on purpose\"}}"}}}`
	rolloutComplete = `{"timestamp":"2026-11-23T15:37:20.500Z","ordinal":20,"type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"ok"}}`
)

func TestTurnEnd(t *testing.T) {
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
		end, ok := rollout{}.TurnEnd([]byte(strings.Join(c.lines, "\n")+"\n"), time.Time{})
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
	rollout := rolloutDir(t, home, "rollout-x.jsonl")
	write := func(lines ...string) {
		if err := os.WriteFile(rollout, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	prompted := time.Date(2026, 11, 23, 15, 37, 31, 0, time.UTC)
	rec := &store.Record{SessionID: "s", Agent: Name, State: store.StateWorking, CWD: "/p",
		TranscriptPath: rollout, UpdatedAt: store.At(prompted), StateChangedAt: store.At(prompted)}
	st := &store.Store{Version: store.Version, Sessions: map[string]*store.Record{"s": rec}}
	resolve := func() resolver.Session {
		snap := resolver.Snapshot{Store: st, TurnEnds: loadTurnEnds(home, st)}
		all := resolver.ResolveAll(snap, prompted.Add(2*time.Second), func(int, int64) bool { return true })
		if len(all) != 1 {
			t.Fatalf("%d sessions", len(all))
		}
		return all[0]
	}

	write(rolloutComplete, rolloutStarted, rolloutUser)
	if s := resolve(); s.State != store.StateWorking || s.TurnEnd != nil {
		t.Errorf("running turn: %s", s.State)
	}
	write(rolloutComplete, rolloutStarted, rolloutUser, rolloutFailed)
	if s := resolve(); s.State != store.StateReady || s.TurnEnd == nil || !s.Since.Equal(time.Date(2026, 11, 23, 15, 37, 31, 68e6, time.UTC)) {
		t.Errorf("failed turn: %s since %v", s.State, s.Since)
	}
	rec.UpdatedAt = store.At(prompted.Add(time.Second)) // a newer prompt
	if s := resolve(); s.State != store.StateWorking {
		t.Errorf("an earlier turn's end: %s", s.State)
	}
	rec.Agent = "" // Claude's transcripts are not read this way
	rec.UpdatedAt = store.At(prompted)
	if got := loadTurnEnds(home, st); len(got) != 0 {
		t.Errorf("read a Claude transcript: %v", got)
	}
}

// logs is the registry's answer for Codex alone.
func logs(agent string) resolver.AgentLog {
	if agent == Name {
		return Codex{}.Log()
	}
	return nil
}

// loadTurnEnds is LoadTurnEnds's turn ends for home.
func loadTurnEnds(home string, st *store.Store) map[string]resolver.TurnEnd {
	ends, _ := resolver.LoadTurnEnds(paths.Layout{Home: home}, st, logs)
	return ends
}

// rolloutDir makes the directory where Codex keeps a day's rollouts in
// home and returns the path of the rollout name there.
func rolloutDir(t *testing.T, home, name string) string {
	t.Helper()
	dir := filepath.Join(home, ".codex", "sessions", "2026", "11", "23")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name)
}

// A Codex record's transcript_path is read only when it names a rollout
// file where Codex keeps them, in its own home, and never through a link:
// a record could name any file, and the tray would watch its directory.
func TestRolloutPathChecked(t *testing.T) {
	home := t.TempDir()
	real := rolloutDir(t, home, "real.jsonl")
	if err := os.WriteFile(real, []byte(rolloutStarted+"\n"+rolloutFailed+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(real)
	link := filepath.Join(dir, "rollout-link.jsonl")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(dir, "rollout-real.jsonl")
	if err := os.Link(real, renamed); err != nil {
		t.Fatal(err)
	}
	// The same rollout outside Codex's home, and a day's directory that is
	// a link to somewhere else.
	elsewhere := filepath.Join(t.TempDir(), "sessions", "2026", "11", "23")
	if err := os.MkdirAll(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(real, filepath.Join(elsewhere, "rollout-real.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(filepath.Dir(dir), "24")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, path    string
		read, watched bool
	}{
		{"not a rollout's name", real, false, false},
		{"a link (in the right directory)", link, false, true},
		{"not absolute", "rollout-x.jsonl", false, false},
		{"outside Codex's home", filepath.Join(elsewhere, "rollout-real.jsonl"), false, false},
		{"through a linked directory", filepath.Join(filepath.Dir(dir), "24", "rollout-real.jsonl"), false, false},
		{"not clean", dir + "/../23/rollout-real.jsonl", false, false},
		{"a rollout where Codex keeps them", renamed, true, true},
	} {
		rec := &store.Record{SessionID: "s", Agent: Name, State: store.StateWorking, TranscriptPath: tt.path}
		st := &store.Store{Version: store.Version, Sessions: map[string]*store.Record{"s": rec}}
		ends, dirs := resolver.LoadTurnEnds(paths.Layout{Home: home}, st, logs)
		if _, read := ends["s"]; read != tt.read {
			t.Errorf("%s: read %v, want %v", tt.name, read, tt.read)
		}
		if watched := len(dirs) > 0; watched != tt.watched {
			t.Errorf("%s: watched %v, want %v", tt.name, dirs, tt.watched)
		}
	}
}
