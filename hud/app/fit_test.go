package app

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// rowsOf spells rows for a table: a word starting with s a session row
// ("s1", key session:s1), ">x" a line under the row above it, "=x" a row
// that acts (key x), any other word a line that only informs.
func rowsOf(spec string) []Row {
	var rows []Row
	for _, w := range strings.Fields(spec) {
		switch {
		case strings.HasPrefix(w, ">"):
			rows = append(rows, Row{Label: detailIndent + w[1:], Disabled: true})
		case strings.HasPrefix(w, "="):
			rows = append(rows, Row{Key: w[1:], Label: w[1:]})
		case strings.HasPrefix(w, "s"):
			rows = append(rows, Row{Key: sessionPrefix + w, Label: w})
		default:
			rows = append(rows, Row{Label: w, Disabled: true})
		}
	}
	return rows
}

func spell(rows []Row) string {
	var words []string
	for _, r := range rows {
		words = append(words, strings.TrimSpace(r.Label))
	}
	return strings.Join(words, " ")
}

func TestFitSessions(t *testing.T) {
	for _, tc := range []struct {
		name, rows string
		n          int
		want       string
		dropped    int
	}{
		{"all fit", "s1 >a s2 >b", 4, "s1 a s2 b", 0},
		{"a whole session goes", "s1 >a s2 >b", 3, "s1 a", 1},
		{"a dialog goes with its session", "s1 >a s2 >b >subject >yes >no s3", 6, "s1 a", 2},
		{"none after the first that does not fit", "s1 s2 >a >b >c s3", 3, "s1", 2},
		{"an unreachable machine is a group of its own", "s1 >a down1 down2", 3, "s1 a down1", 1},
		{"a session bigger than the list", "s1 >a >b >c", 2, "", 1},
		{"nothing", "", 5, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, dropped := fitSessions(rowsOf(tc.rows), tc.n)
			if spell(got) != tc.want || dropped != tc.dropped {
				t.Errorf("fitSessions(%q, %d) = %q, %d dropped; want %q, %d", tc.rows, tc.n, spell(got), dropped, tc.want, tc.dropped)
			}
		})
	}
}

func TestFitSection(t *testing.T) {
	const more = "more accounts — run 'hud status' to see them"
	for _, tc := range []struct {
		name, accounts, others string
		n                      int
		want                   string
	}{
		{"all fit", "acct1 acct2", "=snooze =answer", 4, "acct1 acct2 snooze answer"},
		{"the accounts give way, the rest stays", "acct1 acct2 acct3 acct4", "work1 breaks =snooze =answer", 7,
			"acct1 acct2 2 " + more + " work1 breaks snooze answer"},
		{"room for the summary alone", "acct1 acct2", "work1 =answer", 3, "2 " + more + " work1 answer"},
		{"no account", "", "work1 =answer", 1, "work1"},
		{"only the others, too many", "acct1", "=a =b =c", 2, "a b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fitSection(rowsOf(tc.accounts), rowsOf(tc.others), tc.n)
			if spell(got) != tc.want || len(got) > tc.n {
				t.Errorf("fitSection(%q, %q, %d) = %q; want %q", tc.accounts, tc.others, tc.n, spell(got), tc.want)
			}
		})
	}
}

// fixedSection is a Section showing the same rows at all times.
type fixedSection struct{ rows []Row }

func (s fixedSection) Update(time.Time, []resolver.Session) time.Time { return time.Time{} }
func (s fixedSection) Rows(time.Time) ([]Row, time.Time)              { return s.rows, time.Time{} }
func (s fixedSection) Clicked(string, time.Time)                      {}
func (s fixedSection) Changed() <-chan struct{}                       { return nil }
func (s fixedSection) Configure(config.Config)                        {}

// TestMenuFitsThePools: with more accounts than the section holds, the
// menu the UI gets still fits the tray's pools and keeps every row but
// the accounts'; those beyond the room are summed up.
func TestMenuFitsThePools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := &world{}
		now := time.Now()
		w.put(record("s1", "/home/dev/api", store.StateWorking, 4242, now))
		w.mu.Lock()
		for i := range SectionRows {
			w.snap.Accounts = append(w.snap.Accounts, resolver.Account{ConfigDir: fmt.Sprintf("/home/dev/.claude-%d", i), At: now,
				SevenDay: &resolver.RateLimit{UsedPercent: 40, ResetsAt: now.Add(48 * time.Hour)}})
		}
		w.mu.Unlock()
		actions := []Row{{Label: "Breaks: next in 12 min", Disabled: true}, {Key: "break:take", Label: "Take a break now"}, {Key: "break:snooze", Label: "Snooze"}}
		h := start(t, Options{Section: fixedSection{rows: actions}}, w)
		defer h.stop(t)
		synctest.Wait()

		h.ui.mu.Lock()
		defer h.ui.mu.Unlock()
		section := h.ui.menu.Section
		if len(section) > SectionRows {
			t.Fatalf("%d section rows, the pool holds %d", len(section), SectionRows)
		}
		if got := spell(section[len(section)-3:]); got != "Breaks: next in 12 min Take a break now Snooze" {
			t.Errorf("the section ends %q, want the breaks' line and actions", got)
		}
		summary := section[len(section)-4]
		if summary.Label != "4 more accounts — run 'hud status' to see them" {
			t.Errorf("summary %q, want the 4 accounts left out", summary.Label)
		}
	})
}
