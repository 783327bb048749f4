package registry_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/agent/agenttest"
	"github.com/capacitor-hud/hud/hud/agent/copilot"
	"github.com/capacitor-hud/hud/hud/agent/gemini"
	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// TestLoadTurnEnds: through the registry, the snapshot reads a working
// Copilot session's events.jsonl and a waiting Gemini session's chat
// file, and never a path a payload could aim elsewhere.
func TestLoadTurnEnds(t *testing.T) {
	home := t.TempDir()
	l := paths.Layout{Home: home}
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
	put(".copilot/session-state/"+cpID+"/events.jsonl", agenttest.LogUpTo(t, "copilot-1.0.102/session-files/events.jsonl", 57))
	chat := put(".gemini/tmp/proj/chats/session-2026-11-23T15-30-fab20e7f.jsonl", agenttest.LogUpTo(t, "gemini-0.61.0/session-files/chat-after-denial.jsonl", 1000))
	outside := put("elsewhere/chats/session-x.jsonl", agenttest.LogUpTo(t, "gemini-0.61.0/session-files/chat-after-denial.jsonl", 1000))
	link := filepath.Join(home, ".gemini/tmp/proj/chats/session-link.jsonl")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	before := store.At(agenttest.Time("2026-11-23T15:28:12.262Z"))
	st := store.New()
	st.Sessions[cpID] = &store.Record{SessionID: cpID, Agent: copilot.Name, State: store.StateWaiting, UpdatedAt: before}
	st.Sessions[gmID] = &store.Record{SessionID: gmID, Agent: gemini.Name, State: store.StateWaiting, UpdatedAt: before, TranscriptPath: chat}
	for id, path := range map[string]string{"s-outside": outside, "s-link": link, "s-dotdot": filepath.Join(home, ".gemini/tmp/proj/chats/../../../elsewhere/chats/session-x.jsonl")} {
		st.Sessions[id] = &store.Record{SessionID: id, Agent: gemini.Name, State: store.StateWorking, UpdatedAt: before, TranscriptPath: path}
	}
	st.Sessions["claude"] = &store.Record{SessionID: "claude", State: store.StateWorking, UpdatedAt: before, TranscriptPath: chat}

	ends, dirs := resolver.LoadTurnEnds(l, st, registry.Logs)
	if len(ends) != 2 || ends[cpID].At.IsZero() || ends[gmID].At.IsZero() {
		t.Errorf("turn ends %v, want the Copilot and the Gemini session's only", ends)
	}
	for _, d := range dirs {
		if !strings.HasPrefix(d, filepath.Join(home, ".copilot")) && !strings.HasPrefix(d, filepath.Join(home, ".gemini")) {
			t.Errorf("log directory %s is outside the agents' own", d)
		}
	}
}

// TestEveryAgentIsWhole: each agent in All answers to its name in the
// hook and the readers, and each but Claude Code (which `hud install` with
// no agent wires) has a Setup for `hud install <name>` and doctor.
func TestEveryAgentIsWhole(t *testing.T) {
	for _, a := range registry.All {
		name := a.Name()
		if got, ok := registry.Lookup(name); !ok || got != a {
			t.Errorf("%s: Lookup gives %v, %v", name, got, ok)
		}
		if a.Label() == "" || a.Hook() == nil || a.Hook().Decode == nil || a.Hook().IsProcess == nil {
			t.Errorf("%s: label %q, hook %+v", name, a.Label(), a.Hook())
		}
		if name == resolver.AgentClaude {
			if a.Hook().Name != "" {
				t.Errorf("Claude Code's hook writes agent %q; its records carry none", a.Hook().Name)
			}
			if a.Setup() != nil {
				t.Error("Claude Code has a Setup; `hud install` with no agent wires it")
			}
			continue
		}
		if a.Hook().Name != name {
			t.Errorf("%s: its hook writes agent %q", name, a.Hook().Name)
		}
		s := a.Setup()
		if s == nil || s.Product == "" || len(s.Files) == 0 {
			t.Errorf("%s: hud install cannot wire it: Setup %+v", name, s)
			continue
		}
		for _, f := range s.Files {
			if f.What == "" || f.Path == nil || f.Install == nil || f.Uninstall == nil || f.Problem == nil {
				t.Errorf("%s: Setup's file %+v is not whole", name, f)
			} else if p := f.Path(install.Env{Home: "/home/u"}); !strings.HasPrefix(p, "/home/u/") {
				t.Errorf("%s: its %s is %s, outside the home", name, f.What, p)
			}
		}
	}
	if _, ok := registry.Lookup(""); !ok {
		t.Error("a record with no agent is not Claude Code's")
	}
	if got := registry.Label("nosuchagent"); got != "nosuchagent" {
		t.Errorf("an unknown agent's label is %q, want its own name", got)
	}
}
