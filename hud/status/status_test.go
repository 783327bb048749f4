package status

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func session(id string, state store.State, rec *store.Record, opinion *resolver.ClaudeSession) resolver.Session {
	s := resolver.Session{SessionID: id, State: state, Since: now.Add(-90 * time.Second), Source: resolver.SourceLock, Record: rec, Opinion: opinion}
	if rec != nil {
		s.CWD, s.PID = rec.CWD, rec.PID
	}
	return s
}

func TestTextAlignsColumns(t *testing.T) {
	v := New([]resolver.Session{
		session("a", store.StateWaiting, &store.Record{CWD: "/p/ünïcødé", WaitingFor: "Bash: npm test", WorkingOn: "x"}, nil),
		session("b", store.StateCompacting, &store.Record{CWD: "/p/web", ProjectDir: "/p/web"}, nil),
		session("c", store.StateReady, &store.Record{CWD: "/", WorkingOn: "a \"quoted\"\nprompt\x1b[31m"}, nil),
	}, now)
	var b bytes.Buffer
	if err := WriteText(&b, v); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"ünïcødé  waiting    1m  Bash: npm test\n" +
		"web      compacting 1m\n" +
		"/        ready      1m  \"a \"quoted\" prompt\"\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if v.State != store.StateWaiting {
		t.Errorf("aggregate %s", v.State)
	}
}

func TestWaitingFor(t *testing.T) {
	opinion := &resolver.ClaudeSession{WaitingFor: "permission prompt"}
	tests := []struct {
		name string
		s    resolver.Session
		want string
	}{
		{"the record's", session("a", store.StateWaiting, &store.Record{WaitingFor: "Bash: ls"}, opinion), "Bash: ls"},
		{"Claude's when the record has none", session("a", store.StateWaiting, &store.Record{}, opinion), "permission prompt"},
		{"none when not waiting", session("a", store.StateWorking, &store.Record{WaitingFor: "Bash: ls"}, nil), ""},
		{"a lock without a record", session("a", store.StateReady, nil, nil), ""},
	}
	for _, tt := range tests {
		if got := New([]resolver.Session{tt.s}, now).Sessions[0].WaitingFor; got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestJSONFields(t *testing.T) {
	lockOnly := resolver.Session{SessionID: "s", State: store.StateReady, CWD: "/p/api", PID: 7, Source: resolver.SourceLock,
		Since: now, Lock: &resolver.Lock{LockMeta: resolver.LockMeta{PID: 7, Path: "/p/api", Created: now.Unix()}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, New([]resolver.Session{lockOnly}, now)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		State    string
		Sessions []map[string]any
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Sessions[0]
	for _, key := range []string{"session_id", "agent", "state", "cwd", "project_dir", "project", "name", "working_on", "waiting_for", "agents", "pid", "since", "updated_at", "source", "host", "tmux_pane", "activity", "context"} {
		if _, ok := s[key]; !ok {
			t.Errorf("no %q in %s", key, b.String())
		}
	}
	if len(s) != 18 {
		t.Errorf("%d fields, want 18: %v", len(s), s)
	}
	if s["activity"] != nil {
		t.Errorf("activity %v, want null when the hook recorded nothing", s["activity"])
	}
	if s["project"] != "api" || s["project_dir"] != "/p/api" || s["pid"] != 7.0 || s["since"] != "2026-11-22T12:00:00.000Z" || s["updated_at"] != "2026-11-22T12:00:00.000Z" {
		t.Errorf("got %v", s)
	}
	if doc.State != "ready" {
		t.Errorf("state %q", doc.State)
	}
}

func TestLoadActivity(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	if _, err := activity.Update(l, "with", func(a *activity.Session) bool {
		a.EditedFiles = []string{"a.go", "b.go"}
		a.Todos = []activity.Todo{{Content: "x", Status: "completed"}, {Content: "y", Status: "pending"}}
		a.Git = &activity.GitState{Branch: "main", Dirty: true}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	v := New([]resolver.Session{{SessionID: "with", State: store.StateWorking}, {SessionID: "without", State: store.StateReady}}, now).LoadActivity(l)
	var b bytes.Buffer
	if err := WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sessions []struct {
			SessionID string          `json:"session_id"`
			Activity  *activity.Facts `json:"activity"`
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Sessions[0].Activity
	if a == nil || a.TodosDone != 1 || a.TodosTotal != 2 || a.FilesEdited != 2 || a.Branch != "main" || !a.Dirty {
		t.Errorf("activity of the recorded session: %+v\n%s", a, b.String())
	}
	if doc.Sessions[1].Activity != nil {
		t.Errorf("a session without activity: %+v", doc.Sessions[1].Activity)
	}
}

func TestFormatsRegistered(t *testing.T) {
	for _, name := range []string{"text", "json"} {
		if f, ok := LookupFormat(name); !ok || f.Render == nil || f.Project == nil {
			t.Errorf("format %q missing", name)
		}
	}
	seen := map[string]bool{}
	for _, f := range Formats {
		if f.Name == "" || f.About == "" || f.Render == nil || seen[f.Name] {
			t.Errorf("format %+v: a name, a line of help and a renderer, once", f)
		}
		seen[f.Name] = true
	}
	if got := FormatNames(Streams); got != "json or waybar" {
		t.Errorf("FormatNames(Streams) = %q", got)
	}
}

// TestAgents: the agents a session runs are counted in the text and the
// JSON, before what it works on.
func TestAgents(t *testing.T) {
	v := New([]resolver.Session{
		session("a", store.StateWorking, &store.Record{CWD: "/p/api", WorkingOn: "fix it", Subagents: []string{"a1", "a2"}}, nil),
		session("b", store.StateWorking, &store.Record{CWD: "/p/web", Subagents: []string{"b1"}}, nil),
	}, now)
	var b bytes.Buffer
	if err := WriteText(&b, v); err != nil {
		t.Fatal(err)
	}
	want := "api  working 1m  2 agents running · \"fix it\"\n" +
		"web  working 1m  1 agent running\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"agents": 2,`) {
		t.Errorf("no agent count in %s", b.String())
	}
}
