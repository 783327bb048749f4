package view

import (
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/codex"
	"github.com/capacitor-hud/hud/hud/agent/opencode"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
	"github.com/capacitor-hud/hud/resolver"
)

func TestNameOf(t *testing.T) {
	tests := []struct {
		dir, claude, key, want string
	}{
		{"/src/api", "", "abc", "api"},
		{"/src/api", "auth refactor", "abc", "api · auth refactor"},
		{"", "", "0123456789abcdef", "session 01234567"},
		{"", "named", "abc", "session abc · named"},
		{"/", "", "abc", "/"},
		{"/src/\x1b]0;evil\x07api", "a\nb", "abc", "api · a b"},
	}
	for _, tt := range tests {
		if got := NameOf(tt.dir, tt.claude, tt.key); got != tt.want {
			t.Errorf("NameOf(%q, %q, %q) = %q, want %q", tt.dir, tt.claude, tt.key, got, tt.want)
		}
	}
}

func TestOfPrefersTheRecordsProject(t *testing.T) {
	s := resolver.Session{SessionID: "a", State: store.StateWaiting, CWD: "/src/api/cmd",
		Record:  &store.Record{SessionID: "a", CWD: "/src/api/cmd", ProjectDir: "/src/api", Terminal: terminal.Terminal{TmuxPane: "%3"}},
		Opinion: &resolver.ClaudeSession{Status: "waiting", WaitingFor: "Bash: make"}}
	v := Of(&s)
	if v.Project() != "api" || v.WaitingFor != "Bash: make" || !v.Hooked || !v.ByClaude || v.TmuxPane != "%3" {
		t.Errorf("view %+v", v)
	}
	if v.Name() != "api" {
		t.Errorf("Name() = %q", v.Name())
	}
}

// TestAll: what the notifications and the menu read of each resolved
// session: the record's project and reason first, Claude's own file's
// reason and interruption when the hook has none, a lock-only session
// kept apart by its key, Claude's name for the session.
func TestAll(t *testing.T) {
	at := func(sec int) time.Time { return time.Date(2026, 11, 22, 9, 0, sec, 0, time.UTC) }
	rec := &store.Record{SessionID: "s1", State: store.StateWaiting, CWD: "/p/api/sub", ProjectDir: "/p/api",
		WaitingFor: "Bash: npm test", WorkingOn: "run the tests"}
	rec.TurnStartedAt.Time = at(-30)
	got := All([]resolver.Session{
		{SessionID: "s1", State: store.StateWaiting, Since: at(0), CWD: "/p/api/sub", Record: rec},
		{SessionID: "s2", State: store.StateWaiting, Since: at(1), CWD: "/p/web",
			Record:  &store.Record{SessionID: "s2", State: store.StateWorking},
			Opinion: &resolver.ClaudeSession{Status: resolver.ClaudeStatusWaiting, WaitingFor: "approve Edit"}},
		{SessionID: "s3", State: store.StateReady, Since: at(2), CWD: "/p/cli",
			Record:  &store.Record{SessionID: "s3", State: store.StateWorking, CWD: "/p/cli"},
			Opinion: &resolver.ClaudeSession{Status: resolver.ClaudeStatusIdle}},
		{SessionID: "", State: store.StateReady, Since: at(3), CWD: "/p/lockonly", Lock: &resolver.Lock{Dir: "/l/a"}},
		{SessionID: "s5", State: store.StateReady, Since: at(4), CWD: "/p/named",
			Claude: &resolver.ClaudeSession{Name: "auth refactor", NameSource: "user"}},
	})
	// read is what a surface reads of a view.
	type read struct {
		Key, Name, ProjectDir string
		State                 store.State
		Since, TurnStartedAt  time.Time
		WaitingFor, WorkingOn string
		Interrupted           bool
	}
	want := []read{
		{Key: "s1", Name: "api", ProjectDir: "/p/api", State: store.StateWaiting, Since: at(0), WaitingFor: "Bash: npm test", WorkingOn: "run the tests", TurnStartedAt: at(-30)},
		{Key: "s2", Name: "web", ProjectDir: "/p/web", State: store.StateWaiting, Since: at(1), WaitingFor: "approve Edit"},
		{Key: "s3", Name: "cli", ProjectDir: "/p/cli", State: store.StateReady, Since: at(2), Interrupted: true},
		{Key: "lock:/l/a", Name: "lockonly", ProjectDir: "/p/lockonly", State: store.StateReady, Since: at(3)},
		{Key: "s5", Name: "named · auth refactor", ProjectDir: "/p/named", State: store.StateReady, Since: at(4)},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d sessions", len(got))
	}
	for i := range want {
		g := got[i]
		r := read{Key: g.Key, Name: g.Name(), ProjectDir: g.ProjectDir, State: g.State, Since: g.Since, TurnStartedAt: g.TurnStartedAt,
			WaitingFor: g.WaitingFor, WorkingOn: g.WorkingOn, Interrupted: g.ByClaude && g.State == store.StateReady}
		if r != want[i] {
			t.Errorf("session %d:\n got %+v\nwant %+v", i, r, want[i])
		}
	}
}

func TestDoubt(t *testing.T) {
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		s           Session
		doubt       string
		changesAtIn time.Duration // from now; 0 for never
	}{
		{"a lock, hooked", Session{Source: resolver.SourceLock, Hooked: true}, "", 0},
		{"no hook event", Session{Source: resolver.SourceLock}, "no hook event recorded", 0},
		{"fresh record, lock due soon", Session{Source: resolver.SourceFresh, Hooked: true, UpdatedAt: now.Add(-4 * time.Second)}, "", 6 * time.Second},
		{"fresh record, no lock holder", Session{Source: resolver.SourceFresh, Hooked: true, UpdatedAt: now.Add(-20 * time.Second)},
			"no lock holder", resolver.FreshTTL - 20*time.Second + time.Millisecond},
	}
	for _, tt := range tests {
		doubt, at := tt.s.Doubt(now)
		var in time.Duration
		if !at.IsZero() {
			in = at.Sub(now)
		}
		if doubt != tt.doubt || in != tt.changesAtIn {
			t.Errorf("%s: Doubt = %q, changes in %v; want %q, %v", tt.name, doubt, in, tt.doubt, tt.changesAtIn)
		}
	}
}

func TestSummary(t *testing.T) {
	s := func(name string, st store.State) Session {
		return Session{Key: name, ProjectDir: "/p/" + name, State: st}
	}
	tests := []struct {
		name        string
		sessions    []Session
		nameWaiting int
		want        string
	}{
		{"none", nil, 2, ""},
		{"attention first, counted", []Session{s("a", store.StateReady), s("b", store.StateWaiting), s("c", store.StateWorking), s("d", store.StateWorking)}, 0,
			"waiting:1 waiting|working:2 working|ready:1 ready"},
		{"few waiting are named", []Session{s("api", store.StateWaiting), s("web", store.StateWaiting), s("c", store.StateCompacting)}, 2,
			"waiting:api, web waiting|compacting:1 compacting"},
		{"many waiting are counted", []Session{s("a", store.StateWaiting), s("b", store.StateWaiting), s("c", store.StateWaiting)}, 2,
			"waiting:3 waiting"},
		{"unknown states are counted last", []Session{s("x", "sleeping"), s("y", store.StateReady)}, 2,
			"ready:1 ready|:1 unknown"},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range Summary(tt.sessions, tt.nameWaiting) {
			got = append(got, string(p.State)+":"+p.Text)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, strings.Join(got, "|"), tt.want)
		}
	}
}

// TestOfWaitingAndAgents: a session says what it waits for as Claude's
// own dialog when the hook recorded none, and counts its agents.
func TestOfWaitingAndAgents(t *testing.T) {
	sessions := []resolver.Session{
		{SessionID: "a", State: store.StateWaiting, Source: resolver.SourceLock,
			Record:  &store.Record{SessionID: "a", State: store.StateReady, CWD: "/p/api"},
			Opinion: &resolver.ClaudeSession{Status: "waiting", WaitingFor: "dialog open"}},
		{SessionID: "b", State: store.StateWorking, Source: resolver.SourceLock,
			Record: &store.Record{SessionID: "b", State: store.StateWorking, CWD: "/p/web", Subagents: []string{"x", "y"}}},
	}
	got := All(sessions)
	if got[0].WaitingFor != "dialog open" || got[1].Subagents != 2 {
		t.Errorf("waiting_for %q, agents %d", got[0].WaitingFor, got[1].Subagents)
	}
}

func TestAgentInName(t *testing.T) {
	cases := []struct {
		rec  *store.Record
		want string
	}{
		{nil, "api"},
		{&store.Record{SessionID: "s"}, "api"},
		{&store.Record{SessionID: "s", Agent: resolver.AgentClaude}, "api"},
		{&store.Record{SessionID: "s", Agent: codex.Name}, "api (Codex)"},
		{&store.Record{SessionID: "s", Agent: opencode.Name}, "api (opencode)"},
		{&store.Record{SessionID: "s", Agent: "newagent"}, "api (newagent)"},
	}
	for _, c := range cases {
		v := Of(&resolver.Session{SessionID: "s", CWD: "/p/api", Record: c.rec})
		if got := v.Name(); got != c.want {
			t.Errorf("agent %q: name %q, want %q", resolver.AgentOf(c.rec), got, c.want)
		}
		if v.Agent != resolver.AgentOf(c.rec) {
			t.Errorf("agent %q, want %q", v.Agent, resolver.AgentOf(c.rec))
		}
	}
}

func TestTokens(t *testing.T) {
	for n, want := range map[int]string{0: "0", 950: "950", 1499: "1k", 174_000: "174k", 999_499: "999k", 1_000_000: "1M", 1_200_000: "1.2M"} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %q, want %q", n, got, want)
		}
	}
}
