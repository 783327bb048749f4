package view

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/codex"
	"github.com/capacitor-hud/hud/resolver"
)

func TestAccountLines(t *testing.T) {
	now := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	five := &resolver.RateLimit{UsedPercent: 42.55, ResetsAt: now.Add(2*time.Hour + 5*time.Minute)}
	week := &resolver.RateLimit{UsedPercent: 91, ResetsAt: now.Add(76 * time.Hour)}
	cases := []struct {
		name     string
		accounts []resolver.Account
		want     []string
	}{
		{"none known: no lines", []resolver.Account{{}, {ConfigDir: "/home/u/.claude-work"}}, nil},
		{"both windows", []resolver.Account{{At: now.Add(-2 * time.Minute), FiveHour: five, SevenDay: week}, {ConfigDir: "/home/u/.claude-work"}},
			[]string{"Usage ~/.claude: 5h 42.6% (resets in 2h 5m) · week 91% (resets in 3d 4h) · learnt 2m ago", "Usage ~/.claude-work: usage unknown"}},
		{"one window reset, one with no reset time", []resolver.Account{{ConfigDir: "/srv/claude", At: now, FiveHour: &resolver.RateLimit{UsedPercent: 3, ResetsAt: now}, SevenDay: &resolver.RateLimit{UsedPercent: 7}}},
			[]string{"Usage /srv/claude: 5h unknown · week 7% · learnt now"}},
		{"a Codex home", []resolver.Account{{Agent: codex.Name, ConfigDir: "/home/u/.codex", At: now, FiveHour: &resolver.RateLimit{UsedPercent: 12}}},
			[]string{"Usage ~/.codex (Codex): 5h 12% · week unknown · learnt now"}},
		{"every window reset", []resolver.Account{{At: now, FiveHour: &resolver.RateLimit{UsedPercent: 3, ResetsAt: now.Add(-time.Second)}}}, nil},
	}
	for _, c := range cases {
		got := AccountLines(Accounts("/home/u", c.accounts), now)
		if len(got) != len(c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: %q, want %q", c.name, got[i], c.want[i])
			}
		}
	}
}
