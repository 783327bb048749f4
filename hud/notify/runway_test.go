package notify

import (
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

func ctxSession(key, project string, tokens int) view.Session {
	return view.Session{Key: key, SessionID: key, ProjectDir: "/p/" + project, State: store.StateWorking,
		Context: &resolver.Context{Tokens: tokens, Window: 200_000}}
}

// TestRunwayContextOnce: a session crossing the threshold is warned once,
// not again while it stays over, and again only after it fell below (a
// compaction) and crossed anew; a session over it when the tray started
// is not warned.
func TestRunwayContextOnce(t *testing.T) {
	now := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	r := NewRunway(config.Notifications{ContextAt: 85, UsageAt: 90})
	steps := []struct {
		name     string
		sessions []view.Session
		want     []string
	}{
		{"first look: learnt, not said", []view.Session{ctxSession("a", "api", 100_000), ctxSession("old", "old", 190_000)}, nil},
		{"crosses 85 %", []view.Session{ctxSession("a", "api", 174_000), ctxSession("old", "old", 190_000)},
			[]string{"api: context 87 %, Claude will compact soon|174k of 200k tokens in use"}},
		{"still over", []view.Session{ctxSession("a", "api", 180_000), ctxSession("old", "old", 195_000)}, nil},
		{"compacted", []view.Session{ctxSession("a", "api", 30_000)}, nil},
		{"crosses again", []view.Session{ctxSession("a", "api", 171_000)}, []string{"api: context 86 %, Claude will compact soon|171k of 200k tokens in use"}},
	}
	for _, st := range steps {
		got := r.Update(st.sessions, nil, now)
		if !sameNotes(got, st.want) {
			t.Errorf("%s: %+v, want %q", st.name, got, st.want)
		}
	}
	r.SetConfig(config.Notifications{ContextAt: 0})
	if got := r.Update([]view.Session{ctxSession("b", "web", 199_000)}, nil, now); len(got) != 0 {
		t.Errorf("context_at = 0 warned: %+v", got)
	}
}

// TestRunwayUsageOnce: an account's window is warned once per period,
// with its reset time; a new period (another reset time) is news again.
func TestRunwayUsageOnce(t *testing.T) {
	now := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	r := NewRunway(config.Notifications{ContextAt: 85, UsageAt: 90})
	account := func(five, week float64, reset time.Time) []view.Account {
		return view.Accounts("/home/u", []resolver.Account{{At: now,
			FiveHour: &resolver.RateLimit{UsedPercent: five, ResetsAt: reset},
			SevenDay: &resolver.RateLimit{UsedPercent: week, ResetsAt: now.Add(72 * time.Hour)}}})
	}
	reset := now.Add(2*time.Hour + 5*time.Minute)
	steps := []struct {
		name     string
		accounts []view.Account
		want     []string
	}{
		{"first look", account(10, 50, reset), nil},
		{"the 5-hour window crosses 90 %", account(91, 50, reset), []string{"~/.claude: 91% of the 5-hour limit used|It resets in 2h 5m."}},
		{"still over", account(95, 50, reset), nil},
		{"the weekly one too", account(95, 90, reset), []string{"~/.claude: 90% of the weekly limit used|It resets in 3d."}},
		{"a new 5-hour period, over at once", account(92, 90, reset.Add(5*time.Hour)), []string{"~/.claude: 92% of the 5-hour limit used|It resets in 7h 5m."}},
	}
	for _, st := range steps {
		got := r.Update(nil, st.accounts, now)
		if !sameNotes(got, st.want) {
			t.Errorf("%s: %+v, want %q", st.name, got, st.want)
		}
	}
}

func sameNotes(got []Notification, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Title+"|"+got[i].Body != want[i] {
			return false
		}
	}
	return true
}
