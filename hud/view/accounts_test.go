package view

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/codex"
	"github.com/capacitor-hud/hud/internal/paths"
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

// TestLimitsOutOfBoundsShowNothing: a usage window handed to the status
// line with a share or a reset that cannot be right is unknown on every
// surface, never a number: no line while no window is known, "unknown"
// beside one that is.
func TestLimitsOutOfBoundsShowNothing(t *testing.T) {
	now := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	resets := func(in time.Duration) string { return strconv.FormatInt(now.Add(in).Unix(), 10) }
	goodWeek := `"seven_day":{"used_percentage":12,"resets_at":` + resets(72*time.Hour) + `}`
	cases := []struct {
		name, five string
		want       []string
	}{
		{"1000 %", `{"used_percentage":1000,"resets_at":` + resets(time.Hour) + `}`, nil},
		{"1e308 %", `{"used_percentage":1e308,"resets_at":` + resets(time.Hour) + `}`, nil},
		{"a negative share", `{"used_percentage":-4,"resets_at":` + resets(time.Hour) + `}`, nil},
		{"resets in 106751 days", `{"used_percentage":42,"resets_at":` + resets(106751*24*time.Hour) + `}`, nil},
		{"resets past any time", `{"used_percentage":42,"resets_at":1e300}`, nil},
		{"a 5-hour window resetting in a day", `{"used_percentage":42,"resets_at":` + resets(24*time.Hour) + `}`, nil},
		{"a good window", `{"used_percentage":42,"resets_at":` + resets(2*time.Hour+5*time.Minute) + `}`,
			[]string{"Usage ~/.claude: 5h 42% (resets in 2h 5m) · week unknown · learnt now"}},
	}
	l := paths.Layout{Home: "/home/u"}
	for _, c := range cases {
		for _, week := range []bool{false, true} {
			in := `{"session_id":"s1","rate_limits":{"five_hour":` + c.five + `}}`
			want := c.want
			if week {
				in = `{"session_id":"s1","rate_limits":{"five_hour":` + c.five + `,` + goodWeek + `}}`
				want = []string{"Usage ~/.claude: 5h unknown · week 12% (resets in 3d) · learnt now"}
				if c.want != nil {
					want = []string{"Usage ~/.claude: 5h 42% (resets in 2h 5m) · week 12% (resets in 3d) · learnt now"}
				}
			}
			lines := map[string]resolver.StatusLine{}
			if sl, err := resolver.ParseStatusLine([]byte(in), "", now); err == nil {
				lines["s1"] = sl
			}
			got := AccountLines(Accounts("/home/u", resolver.Accounts(l, nil, lines)), now)
			if !slices.Equal(got, want) {
				t.Errorf("%s (a good week too: %v): %q, want %q", c.name, week, got, want)
			}
		}
	}
}
