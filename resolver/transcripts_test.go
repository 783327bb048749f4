package resolver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const recordedLogs = "../testdata/hook"

// logUpTo is a recorded log cut after its line n (1-based): the file as
// it was at that moment.
func logUpTo(t *testing.T, path string, n int) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(recordedLogs, path))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	return []byte(strings.Join(lines[:min(n, len(lines))], ""))
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestAgentTurnEnds reads the recorded logs at the moments the hooks were
// silent (testdata/hook/<agent>-<release>/README.md).
func TestAgentTurnEnds(t *testing.T) {
	const events = "copilot-1.0.102/session-files/events.jsonl"
	// modified is when the log was last written: a Copilot turn that ended
	// without a hook ends then.
	const modified = "2026-11-23T17:00:00Z"
	cases := []struct {
		name  string
		last  func([]byte, time.Time) (TurnEnd, bool)
		tail  []byte
		found bool
		at    string
		error string
	}{
		{"copilot a prompt's tool call", copilotTurnEnd, logUpTo(t, events, 55), false, "", ""},
		{"copilot denial", copilotTurnEnd, logUpTo(t, events, 57), true, modified, ""},
		{"copilot Esc Esc", copilotTurnEnd, logUpTo(t, events, 63), true, modified, ""},
		{"copilot model error", copilotTurnEnd, logUpTo(t, events, 93), true, modified, "400 the stand-in answers 400 as asked"},
		{"copilot the next prompt's hook runs", copilotTurnEnd, logUpTo(t, events, 94), false, "", ""},
		{"copilot a new turn after an end", copilotTurnEnd, logUpTo(t, events, 97), false, "", ""},
		{"copilot a turn ended by agentStop", copilotTurnEnd, logUpTo(t, events, 40), true, modified, ""},
		// Esc Esc before the first words: the log rewound past the prompt
		// whose hook fired at 16:04:47.043, its hook.start gone with it.
		{"copilot edit prompt", copilotTurnEnd, logUpTo(t, "copilot-1.0.102/session-files/events-edit-prompt.jsonl", 1000), true, modified, ""},
		{"copilot a model call's end inside a turn", copilotTurnEnd, logUpTo(t, events, 34), false, "", ""},
		{"gemini while working", geminiTurnEnd, logUpTo(t, "gemini-0.61.0/session-files/chat.jsonl", 20), false, "", ""},
		{"gemini denial", geminiTurnEnd, logUpTo(t, "gemini-0.61.0/session-files/chat-after-denial.jsonl", 1000), true, "2026-11-23T15:31:28.623Z", ""},
		{"gemini Esc", geminiTurnEnd, logUpTo(t, "gemini-0.61.0/session-files/chat.jsonl", 1000), true, "2026-11-23T15:31:48.931Z", ""},
		{"a cut first line and junk", copilotTurnEnd, []byte(`e":"abort"}` + "\nnot json\n" + `{"type":"abort","timestamp":"2026-11-23T15:00:00Z"`), false, "", ""},
	}
	for _, c := range cases {
		end, ok := c.last(c.tail, ts(modified))
		if ok != c.found {
			t.Errorf("%s: found %v, want %v", c.name, ok, c.found)
			continue
		}
		if !ok {
			continue
		}
		if !end.At.Equal(ts(c.at)) || !strings.HasPrefix(end.Error, c.error) || (c.error == "") != (end.Error == "") {
			t.Errorf("%s: %v %q, want %s %q", c.name, end.At, end.Error, c.at, c.error)
		}
	}
}

// TestTranscriptOpinion: the moments Copilot's and Gemini's transcripts
// decide.
func TestTranscriptOpinion(t *testing.T) {
	end := TurnEnd{At: ts("2026-11-23T15:28:16.127Z")}
	cases := []struct {
		name    string
		state   State
		updated string
		want    State
		ok      bool
	}{
		{"waiting on the denied dialog", StateWaiting, "2026-11-23T15:28:12.262Z", StateReady, true},
		{"working when Esc stopped it", StateWorking, "2026-11-23T15:28:12.262Z", StateReady, true},
		{"a hook after the end wins", StateWorking, "2026-11-23T15:28:20.000Z", "", false},
		{"ready already", StateReady, "2026-11-23T15:28:12.262Z", "", false},
		{"compacting is the hooks'", StateCompacting, "2026-11-23T15:28:12.262Z", "", false},
	}
	for _, c := range cases {
		rec := &Record{SessionID: "s", State: c.state, UpdatedAt: At(ts(c.updated))}
		state, since, ok := TurnEndOpinion(rec, end)
		if ok != c.ok || state != c.want || (ok && !since.Equal(end.At)) {
			t.Errorf("%s: %s %v %v, want %s %v", c.name, state, since, ok, c.want, c.ok)
		}
	}
}

// TestLoadTranscriptTurnEnds: the snapshot reads a working Copilot session's
// events.jsonl and a waiting Gemini session's chat file, and never a path
// a payload could aim elsewhere.
func TestLoadTranscriptTurnEnds(t *testing.T) {
	home := t.TempDir()
	l := Layout{Home: home}
	put := func(rel string, b []byte) string {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const cpID, gmID = "06fc3013-484c-4fe7-b048-5ed1ec7fdadc", "fab20e7f-8708-4034-9d40-31457422420a"
	put(".copilot/session-state/"+cpID+"/events.jsonl", logUpTo(t, "copilot-1.0.102/session-files/events.jsonl", 57))
	chat := put(".gemini/tmp/proj/chats/session-2026-11-23T15-30-fab20e7f.jsonl", logUpTo(t, "gemini-0.61.0/session-files/chat-after-denial.jsonl", 1000))
	outside := put("elsewhere/chats/session-x.jsonl", logUpTo(t, "gemini-0.61.0/session-files/chat-after-denial.jsonl", 1000))
	link := filepath.Join(home, ".gemini/tmp/proj/chats/session-link.jsonl")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	before := At(ts("2026-11-23T15:28:12.262Z"))
	st := NewStore()
	st.Sessions[cpID] = &Record{SessionID: cpID, Agent: AgentCopilot, State: StateWaiting, UpdatedAt: before}
	st.Sessions[gmID] = &Record{SessionID: gmID, Agent: AgentGemini, State: StateWaiting, UpdatedAt: before, TranscriptPath: chat}
	for id, path := range map[string]string{"s-outside": outside, "s-link": link, "s-dotdot": filepath.Join(home, ".gemini/tmp/proj/chats/../../../elsewhere/chats/session-x.jsonl")} {
		st.Sessions[id] = &Record{SessionID: id, Agent: AgentGemini, State: StateWorking, UpdatedAt: before, TranscriptPath: path}
	}
	st.Sessions["claude"] = &Record{SessionID: "claude", State: StateWorking, UpdatedAt: before, TranscriptPath: chat}

	ends, dirs := LoadTurnEnds(l, st)
	if len(ends) != 2 || ends[cpID].At.IsZero() || ends[gmID].At.IsZero() {
		t.Errorf("turn ends %v, want the Copilot and the Gemini session's only", ends)
	}
	for _, d := range dirs {
		if !strings.HasPrefix(d, filepath.Join(home, ".copilot")) && !strings.HasPrefix(d, filepath.Join(home, ".gemini")) {
			t.Errorf("log directory %s is outside the agents' own", d)
		}
	}
}

func TestCopilotLogPath(t *testing.T) {
	const id = "06fc3013-484c-4fe7-b048-5ed1ec7fdadc"
	l := Layout{Home: "/home/u"}
	def := "/home/u/.copilot/session-state/" + id + "/events.jsonl"
	cases := []struct{ transcript, want string }{
		{"", def},
		{"/srv/copilot/session-state/" + id + "/events.jsonl", "/srv/copilot/session-state/" + id + "/events.jsonl"},
		{"/srv/copilot/session-state/other/events.jsonl", def},
		{"/etc/passwd", def},
		{"/srv/x/../copilot/session-state/" + id + "/events.jsonl", def},
		{"relative/session-state/" + id + "/events.jsonl", def},
	}
	for _, c := range cases {
		if got, _ := copilotLogPath(l, &Record{SessionID: id, TranscriptPath: c.transcript}); got != c.want {
			t.Errorf("transcript %q: %s, want %s", c.transcript, got, c.want)
		}
	}
}
