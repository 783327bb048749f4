package view

import (
	"testing"

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
	s := resolver.Session{SessionID: "a", State: resolver.StateWaiting, CWD: "/src/api/cmd",
		Record:  &resolver.Record{SessionID: "a", CWD: "/src/api/cmd", ProjectDir: "/src/api", TmuxPane: "%3"},
		Opinion: &resolver.ClaudeSession{Status: "waiting", WaitingFor: "Bash: make"}}
	v := Of(&s)
	if v.Project() != "api" || v.WaitingFor != "Bash: make" || !v.Hooked || !v.ByClaude || v.TmuxPane != "%3" {
		t.Errorf("view %+v", v)
	}
	if v.Name() != "api" {
		t.Errorf("Name() = %q", v.Name())
	}
}

func TestAgentInName(t *testing.T) {
	cases := []struct {
		rec  *resolver.Record
		want string
	}{
		{nil, "api"},
		{&resolver.Record{SessionID: "s"}, "api"},
		{&resolver.Record{SessionID: "s", Agent: resolver.AgentClaude}, "api"},
		{&resolver.Record{SessionID: "s", Agent: resolver.AgentCodex}, "api (Codex)"},
		{&resolver.Record{SessionID: "s", Agent: resolver.AgentOpencode}, "api (opencode)"},
		{&resolver.Record{SessionID: "s", Agent: "newagent"}, "api (newagent)"},
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
