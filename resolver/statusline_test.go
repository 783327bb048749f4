package resolver

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

// statusLineSubscription is the shape Claude Code hands its status line
// for a subscription login (rate_limits filled), trimmed.
const statusLineSubscription = `{"session_id":"s1","cwd":"/p","model":{"id":"claude-sonnet-4-6[1m]","display_name":"Sonnet 4.6 (1M context)"},
"context_window":{"total_input_tokens":90000,"total_output_tokens":300,"context_window_size":1000000,
"current_usage":{"input_tokens":10,"output_tokens":300,"cache_creation_input_tokens":1000,"cache_read_input_tokens":88990},"used_percentage":9,"remaining_percentage":91},
"rate_limits":{"five_hour":{"used_percentage":42.5,"resets_at":1795000000},"seven_day":{"used_percentage":91,"resets_at":1795400000}}}`

func TestParseStatusLine(t *testing.T) {
	// Two hours before the subscription shape's five-hour reset.
	now := time.Unix(1795000000, 0).Add(-2 * time.Hour).UTC()
	cases := []struct {
		name    string
		in      string
		want    StatusLine
		wantErr string
	}{
		{"a subscription login", statusLineSubscription, StatusLine{SessionID: "s1", ConfigDir: "/c", At: now, Model: "claude-sonnet-4-6[1m]",
			Tokens: 90000, Window: 1000000,
			FiveHour: &RateLimit{42.5, time.Unix(1795000000, 0).UTC()}, SevenDay: &RateLimit{91, time.Unix(1795400000, 0).UTC()}}, ""},
		{"no rate limits, no usage yet", `{"session_id":"s1","model":{"id":"m"},"context_window":{"context_window_size":200000,"current_usage":null},"rate_limits":null}`,
			StatusLine{SessionID: "s1", ConfigDir: "/c", At: now, Model: "m", Window: 200000}, ""},
		{"a limit with no reset time", `{"session_id":"s1","rate_limits":{"five_hour":{"used_percentage":3}}}`,
			StatusLine{SessionID: "s1", ConfigDir: "/c", At: now, FiveHour: &RateLimit{UsedPercent: 3}}, ""},
		{"no session", `{"model":{"id":"m"}}`, StatusLine{}, "no session_id"},
		{"a session id that is a path", `{"session_id":"../x"}`, StatusLine{}, "not allowed"},
		{"not JSON", `hello`, StatusLine{}, "reading status line input"},
	}
	for _, c := range cases {
		got, err := ParseStatusLine([]byte(c.in), "/c", now)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil || !got.sameFigures(c.want) || !got.At.Equal(now) {
			t.Errorf("%s: %+v %v\nwant %+v", c.name, got, err, c.want)
		}
	}
}

// TestStatusLineFiguresOutOfBounds: a figure of the status line that
// cannot be right is recorded as not given (unknown), and only that
// figure: the others are recorded as they came.
func TestStatusLineFiguresOutOfBounds(t *testing.T) {
	now := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	resets := func(in time.Duration) string { return strconv.FormatInt(now.Add(in).Unix(), 10) }
	five := func(share, reset string) string {
		return `{"session_id":"s1","rate_limits":{"five_hour":{"used_percentage":` + share + `,"resets_at":` + reset + `},` +
			`"seven_day":{"used_percentage":12,"resets_at":` + resets(72*time.Hour) + `}}}`
	}
	week := &RateLimit{12, now.Add(72 * time.Hour)}
	usage := func(input, creation, read string) string {
		return `{"session_id":"s1","context_window":{"context_window_size":200000,"current_usage":` +
			`{"input_tokens":` + input + `,"cache_creation_input_tokens":` + creation + `,"cache_read_input_tokens":` + read + `}}}`
	}
	maxInt := strconv.Itoa(math.MaxInt)
	cases := []struct {
		name string
		in   string
		want StatusLine
	}{
		// Shares.
		{"1000 %", five("1000", resets(time.Hour)), StatusLine{SevenDay: week}},
		{"a share no float can pass", five("1e308", resets(time.Hour)), StatusLine{SevenDay: week}},
		{"a negative share", five("-4", resets(time.Hour)), StatusLine{SevenDay: week}},
		{"just past the slack", five("110.5", resets(time.Hour)), StatusLine{SevenDay: week}},
		{"a little over 100 %", five("104", resets(time.Hour)), StatusLine{FiveHour: &RateLimit{104, now.Add(time.Hour)}, SevenDay: week}},
		// Resets.
		{"a 5-hour window resetting in 106751 days", five("42", resets(106751*24*time.Hour)), StatusLine{SevenDay: week}},
		{"a reset no time can hold", five("42", "1e300"), StatusLine{SevenDay: week}},
		{"a 5-hour window resetting in 7 hours", five("42", resets(7*time.Hour)), StatusLine{SevenDay: week}},
		{"a 5-hour window resetting in 5 hours 59", five("42", resets(5*time.Hour+59*time.Minute)),
			StatusLine{FiveHour: &RateLimit{42, now.Add(5*time.Hour + 59*time.Minute)}, SevenDay: week}},
		{"a reset a day ago", five("42", resets(-24*time.Hour)), StatusLine{SevenDay: week}},
		{"a reset at 1970", five("42", "0"), StatusLine{SevenDay: week}},
		{"a reset seconds ago (clocks apart)", five("42", resets(-30*time.Second)),
			StatusLine{FiveHour: &RateLimit{42, now.Add(-30 * time.Second)}, SevenDay: week}},
		{"a week resetting in 9 days", `{"session_id":"s1","rate_limits":{"seven_day":{"used_percentage":12,"resets_at":` + resets(9*24*time.Hour) + `}}}`,
			StatusLine{}},
		{"a week resetting in 8 days", `{"session_id":"s1","rate_limits":{"seven_day":{"used_percentage":12,"resets_at":` + resets(8*24*time.Hour) + `}}}`,
			StatusLine{SevenDay: &RateLimit{12, now.Add(8 * 24 * time.Hour)}}},
		// Counts and the window.
		{"a negative count", usage("-5", "100", "0"), StatusLine{Window: 200000}},
		{"a sum that overflows", usage(maxInt, maxInt, "4"), StatusLine{Window: 200000}},
		{"a count past MaxTokens", usage("0", "0", "200000000"), StatusLine{Window: 200000}},
		{"a negative window", `{"session_id":"s1","context_window":{"context_window_size":-1,"current_usage":{"input_tokens":5}}}`, StatusLine{Tokens: 5}},
		{"a window past MaxTokens", `{"session_id":"s1","context_window":{"context_window_size":1000000000000000,"current_usage":{"input_tokens":5}}}`, StatusLine{Tokens: 5}},
	}
	for _, c := range cases {
		got, err := ParseStatusLine([]byte(c.in), "", now)
		c.want.SessionID, c.want.At = "s1", now
		if err != nil || !got.sameFigures(c.want) {
			t.Errorf("%s: %+v %v\nwant %+v", c.name, got, err, c.want)
		}
	}
}

// TestLoadStatusLinesChecksLimits: a recorded status line is hud's own
// file, but its windows came from outside: held to the same bounds when
// read.
func TestLoadStatusLinesChecksLimits(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	if err := os.MkdirAll(l.StatusLineDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	rec := `{"session_id":"s1","at":"2026-11-26T15:00:00Z","tokens":5,"window":10,` +
		`"five_hour":{"used_percentage":1000,"resets_at":"2026-11-26T16:00:00Z"},` +
		`"seven_day":{"used_percentage":12,"resets_at":"2319-03-01T00:00:00Z"}}`
	if err := os.WriteFile(l.StatusLinePath("s1"), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	got, ok := LoadStatusLines(l)["s1"]
	if !ok || got.FiveHour != nil || got.SevenDay != nil || got.Tokens != 5 {
		t.Errorf("loaded %+v %+v %+v", got, got.FiveHour, got.SevenDay)
	}
}

// TestParseRecordedStatusLine: what the real CLI handed its status line
// (scripts/e2e TestRunway, HUD_E2E_STATUSLINE), logged in with an API key:
// the context as Claude counts it, and no rate_limits at all, since
// Claude gives them only to claude.ai subscription logins.
func TestParseRecordedStatusLine(t *testing.T) {
	now := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	for _, release := range []string{"2.1.197", "2.1.330"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "statusline", "claude-"+release+"-apikey.json"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseStatusLine(b, "", now)
		if err != nil || got.Model != "claude-sonnet-4-5" || got.Tokens != 171_000 || got.Window != DefaultWindow ||
			got.FiveHour != nil || got.SevenDay != nil {
			t.Errorf("%s: %+v %v", release, got, err)
		}
	}
}

// TestRecordStatusLine: written 0600 when new or changed, left alone when
// unchanged and younger than StatusLineRefresh.
func TestRecordStatusLine(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	now := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	sl := StatusLine{SessionID: "s1", At: now, Model: "m", Tokens: 5, Window: 10}
	steps := []struct {
		name  string
		at    time.Duration
		edit  func(*StatusLine)
		wrote bool
	}{
		{"new", 0, nil, true},
		{"unchanged", 10 * time.Second, nil, false},
		{"changed", 20 * time.Second, func(s *StatusLine) { s.Tokens = 6 }, true},
		{"unchanged past the refresh", 20*time.Second + StatusLineRefresh, nil, true},
	}
	for _, st := range steps {
		sl.At = now.Add(st.at)
		if st.edit != nil {
			st.edit(&sl)
		}
		wrote, err := RecordStatusLine(l, sl)
		if err != nil || wrote != st.wrote {
			t.Fatalf("%s: wrote %v, %v", st.name, wrote, err)
		}
	}
	info, err := os.Stat(l.StatusLinePath("s1"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", info, err)
	}
	lines := LoadStatusLines(l)
	if got := lines["s1"]; got.Tokens != 6 || !got.At.Equal(sl.At) {
		t.Errorf("loaded %+v", got)
	}
	if _, err := RecordStatusLine(l, StatusLine{SessionID: "a/b"}); err == nil {
		t.Error("a session id with a slash was recorded")
	}

	// A link at the directory's name: nothing is written through it.
	other := t.TempDir()
	if err := os.RemoveAll(l.StatusLineDir()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, l.StatusLineDir()); err != nil {
		t.Fatal(err)
	}
	if _, err := RecordStatusLine(l, StatusLine{SessionID: "s2"}); err == nil {
		t.Error("recorded through a link")
	}
	if entries, _ := os.ReadDir(other); len(entries) != 0 {
		t.Errorf("written through a link: %v", entries)
	}
	if err := os.WriteFile(filepath.Join(other, "s3.json"), []byte(`{"session_id":"s3","tokens":9}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := LoadStatusLines(l); len(got) != 0 {
		t.Errorf("read through a link: %+v", got)
	}
}

// TestLoadStatusLines: a link, a file naming another session and a file
// that is not JSON are left out.
func TestLoadStatusLines(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	if _, err := RecordStatusLine(l, StatusLine{SessionID: "s1", Tokens: 1}); err != nil {
		t.Fatal(err)
	}
	dir := l.StatusLineDir()
	b, _ := os.ReadFile(l.StatusLinePath("s1"))
	for name, data := range map[string]string{"s2.json": string(b), "s3.json": "{", "s4.txt": string(b)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(l.StatusLinePath("s1"), filepath.Join(dir, "s5.json")); err != nil {
		t.Fatal(err)
	}
	got := LoadStatusLines(l)
	if len(got) != 1 || got["s1"].Tokens != 1 {
		t.Errorf("%+v", got)
	}
}

func TestTidyStatusLines(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	now := time.Now()
	for _, id := range []string{"old", "new"} {
		if _, err := RecordStatusLine(l, StatusLine{SessionID: id}); err != nil {
			t.Fatal(err)
		}
	}
	old := now.Add(-StatusLineKeep - time.Hour)
	if err := os.Chtimes(l.StatusLinePath("old"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := TidyStatusLines(l, now.Add(-StatusLineKeep)); err != nil {
		t.Fatal(err)
	}
	got := LoadStatusLines(l)
	if _, ok := got["old"]; ok || len(got) != 1 {
		t.Errorf("after tidying: %+v", got)
	}

	// The directory's name a link to another: nothing there is removed.
	other := t.TempDir()
	kept := filepath.Join(other, "notes.json")
	if err := os.WriteFile(kept, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(kept, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(l.StatusLineDir()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, l.StatusLineDir()); err != nil {
		t.Fatal(err)
	}
	if err := TidyStatusLines(l, now.Add(-StatusLineKeep)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("a file behind a link at the directory's name was removed: %v", err)
	}
}

func TestAccounts(t *testing.T) {
	l := paths.Layout{Home: "/home/u"}
	t0 := time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)
	five := &RateLimit{UsedPercent: 42, ResetsAt: t0.Add(time.Hour)}
	week := &RateLimit{UsedPercent: 91, ResetsAt: t0.Add(48 * time.Hour)}
	lines := map[string]StatusLine{
		"a": {SessionID: "a", At: t0, FiveHour: five, SevenDay: week},
		"b": {SessionID: "b", At: t0.Add(-time.Minute), FiveHour: &RateLimit{UsedPercent: 1}},
		// The work account's newest line says no limits: none are known.
		"c": {SessionID: "c", ConfigDir: "/home/u/.claude-work", At: t0.Add(-time.Hour), FiveHour: five},
		"d": {SessionID: "d", ConfigDir: "/home/u/.claude-work", At: t0},
		"e": {SessionID: "e", ConfigDir: "/x", At: t0, SevenDay: week},
	}
	got := Accounts(l, []string{"/home/u/.claude", "/home/u/.claude-work", "/home/u/.claude-spare"}, lines)
	want := []Account{
		{ConfigDir: "", At: t0, FiveHour: five, SevenDay: week},
		{ConfigDir: "/home/u/.claude-work"},
		{ConfigDir: "/home/u/.claude-spare"},
		{ConfigDir: "/x", At: t0, SevenDay: week},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.ConfigDir != w.ConfigDir || !g.At.Equal(w.At) || g.FiveHour != w.FiveHour || g.SevenDay != w.SevenDay {
			t.Errorf("account %d: %+v, want %+v", i, g, w)
		}
	}
	if five.Known(t0) != five || five.Known(t0.Add(time.Hour)) != nil || (&RateLimit{UsedPercent: 1}).Known(t0) == nil {
		t.Error("Known: a window is known until its reset time, and always without one")
	}
}
