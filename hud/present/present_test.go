package present

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
	"github.com/capacitor-hud/hud/resolver"
)

var now = time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)

// session is a live session whose hook events arrive, as the resolver
// found it through its lock.
func session(id, project string, st store.State, age time.Duration) view.Session {
	return view.Session{Key: id, SessionID: id, State: st, ProjectDir: "/home/dev/" + project, CWD: "/home/dev/" + project,
		Since: now.Add(-age), Source: resolver.SourceLock, Hooked: true}
}

func withName(s view.Session, name string) view.Session {
	s.ClaudeName = name
	return s
}

// unhooked is s with no hook event recorded: Claude's own files alone
// know of it.
func onHost(s view.Session, host string) view.Session {
	s.Host = host
	return s
}

func unhooked(s view.Session) view.Session {
	s.Hooked = false
	return s
}

func TestHooksDoubt(t *testing.T) {
	tests := []struct {
		problem string
		arrive  bool
		want    string
	}{
		{"", false, ""},
		{"", true, ""},
		{"Hooks not installed", false, "Hooks not installed"},
		{"Hooks not installed", true, ""},
		{"Hook binary missing: /x", true, ""},
	}
	for _, tt := range tests {
		if got := HooksDoubt(tt.problem, tt.arrive); got != tt.want {
			t.Errorf("HooksDoubt(%q, %v) = %q, want %q", tt.problem, tt.arrive, got, tt.want)
		}
	}
}

func TestPresent(t *testing.T) {
	waitingAPI := session("s1", "api", store.StateWaiting, 2*time.Minute+5*time.Second)
	waitingAPI.WaitingFor = "Bash: npm test"
	waitingAPI.TmuxPane = "%3"
	workingWeb := session("s2", "web", store.StateWorking, 42*time.Second)
	workingWeb.WorkingOn = "fix the login form\nand the tests"
	ready := session("s3", "docs", store.StateReady, 65*time.Minute)
	compacting := session("s4", "api", store.StateCompacting, 3*time.Second)
	// A fresh record without a lock, 18s old: doubted since 8s, dropped
	// in 12s.
	doubtful := session("s5", "cli", store.StateWorking, time.Minute)
	doubtful.Source = resolver.SourceFresh
	doubtful.UpdatedAt = now.Add(12*time.Second - resolver.FreshTTL - time.Millisecond)

	tests := []struct {
		name      string
		in        Input
		icon      string
		title     string
		status    string
		rows      []string
		next      time.Duration // to the next label or change, from now; 0 = never
		change    time.Duration // to the next change alone
		install   string
		tooltipHa string // a line the tooltip must hold
	}{
		{
			name: "nothing live", in: Input{ShowTitle: true},
			icon: assets.IconIdle, status: "No Claude Code sessions", tooltipHa: "Claude Code: no sessions",
		},
		{
			name: "hooks missing, nothing live", in: Input{ShowTitle: true, HooksProblem: "Hooks not installed"},
			icon: assets.IconUnsure, status: "No Claude Code sessions", install: "Hooks not installed",
			tooltipHa: "Hooks not installed: states may be missing or stale",
		},
		{
			name: "attention first",
			in:   Input{ShowTitle: true, Sessions: []view.Session{ready, workingWeb, compacting, waitingAPI}},
			icon: assets.IconWaiting, title: "1 waiting · 1 working · 1 compacting · 1 ready",
			rows: []string{
				"api — waiting 2m — Bash: npm test",
				`web — working 40s — "fix the login form and the tests"`,
				"api (2) — compacting now",
				"docs — ready 1h 5m",
			},
			next:      7 * time.Second, // compacting "now" becomes "10s"
			tooltipHa: "api — waiting 2m — Bash: npm test",
		},
		{
			name: "title off", in: Input{Sessions: []view.Session{ready}},
			icon: assets.IconReady, rows: []string{"docs — ready 1h 5m"}, next: time.Minute,
			tooltipHa: "Claude Code: 1 ready",
		},
		{
			name: "the deciding session is doubtful",
			in:   Input{ShowTitle: true, Sessions: []view.Session{ready, doubtful}},
			icon: assets.IconUnsure, title: "1 working · 1 ready",
			rows:   []string{"cli — working 1m (unsure: no lock holder)", "docs — ready 1h 5m"},
			next:   12 * time.Second, // the fresh record expires before any label moves
			change: 12 * time.Second,
		},
		{
			name: "waiting outranks a doubtful working session",
			in:   Input{Sessions: []view.Session{doubtful, waitingAPI}},
			icon: assets.IconWaiting,
			rows: []string{"api — waiting 2m — Bash: npm test", "cli — working 1m (unsure: no lock holder)"},
			next: 12 * time.Second, change: 12 * time.Second,
		},
		{
			name: "unknown state is unsure, never hidden",
			in:   Input{ShowTitle: true, Sessions: []view.Session{session("s9", "x", "sleeping", 0)}},
			icon: assets.IconUnsure, title: "1 unknown", rows: []string{"x — state unknown now"}, next: 10 * time.Second,
		},
		{
			name: "hooks missing overrides a live state without events",
			in:   Input{HooksProblem: "Hook binary missing: /x", Sessions: []view.Session{unhooked(waitingAPI)}},
			icon: assets.IconUnsure, install: "Hook binary missing: /x",
			rows: []string{"api — waiting 2m — Bash: npm test (unsure: no hook event recorded)"}, next: 55 * time.Second,
			tooltipHa: "Hook binary missing: /x: states may be missing or stale",
		},
		{
			name: "Claude's name beside the project; same project, other names need no number",
			in: Input{Sessions: []view.Session{withName(session("s1", "api", store.StateReady, time.Minute), "auth refactor"),
				withName(session("s2", "api", store.StateReady, 2*time.Minute), "docs pass"),
				session("s3", "api", store.StateReady, 3*time.Minute)}},
			icon: assets.IconReady,
			rows: []string{"api — ready 3m", "api · docs pass — ready 2m", "api · auth refactor — ready 1m"},
			next: 60 * time.Second,
		},
		{
			// Hooks wired in a project's settings (or --settings, a
			// plugin): the events arrive, so the state is shown as it is,
			// and the menu still offers the user-wide install.
			name: "hooks from elsewhere: a session whose events arrive shows its state",
			in:   Input{HooksProblem: "Hooks not installed", Sessions: []view.Session{waitingAPI, unhooked(workingWeb)}},
			icon: assets.IconWaiting, install: "Hooks not installed",
			rows: []string{"api — waiting 2m — Bash: npm test",
				`web — working 40s — "fix the login form and the tests" (unsure: no hook event recorded)`},
			next:      8 * time.Second,
			tooltipHa: "Hooks not installed in your user settings: only sessions with hooks of their own report",
		},
		{
			// A remote machine's events say nothing of this one's hooks.
			name: "a remote session's events do not vouch for the hooks here",
			in:   Input{HooksProblem: "Hooks not installed", Sessions: []view.Session{onHost(waitingAPI, "devbox")}},
			icon: assets.IconUnsure, install: "Hooks not installed",
			rows:      []string{"devbox · api — waiting 2m — Bash: npm test"},
			next:      55 * time.Second,
			tooltipHa: "Hooks not installed: states may be missing or stale",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = now
			v := Present(tt.in)
			if v.Icon != tt.icon {
				t.Errorf("icon = %q, want %q", v.Icon, tt.icon)
			}
			if v.Count != len(tt.in.Sessions) {
				t.Errorf("count = %d, want %d", v.Count, len(tt.in.Sessions))
			}
			if v.Title != tt.title {
				t.Errorf("title = %q, want %q", v.Title, tt.title)
			}
			if v.Status != tt.status {
				t.Errorf("status = %q, want %q", v.Status, tt.status)
			}
			if v.HooksProblem != tt.install {
				t.Errorf("install hooks = %v, want %v", v.HooksProblem, tt.install)
			}
			var labels []string
			for _, r := range v.Rows {
				labels = append(labels, r.Label)
			}
			if strings.Join(labels, "\n") != strings.Join(tt.rows, "\n") {
				t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(labels, "\n"), strings.Join(tt.rows, "\n"))
			}
			var next time.Duration
			if at := Earliest(v.NextLabel, v.NextChange); !at.IsZero() {
				next = at.Sub(now)
			}
			if next != tt.next {
				t.Errorf("next refresh in %v, want %v", next, tt.next)
			}
			var change time.Duration
			if !v.NextChange.IsZero() {
				change = v.NextChange.Sub(now)
			}
			if change != tt.change {
				t.Errorf("next change in %v, want %v", change, tt.change)
			}
			if tt.tooltipHa != "" && !strings.Contains(v.Tooltip, tt.tooltipHa) {
				t.Errorf("tooltip %q lacks %q", v.Tooltip, tt.tooltipHa)
			}
		})
	}
}

func TestRowsCarryFocusAndKey(t *testing.T) {
	s := session("abc", "api", store.StateReady, time.Minute)
	s.TmuxPane = "%7"
	s.CWD = "/home/dev/api/src"
	v := Present(Input{Now: now, Sessions: []view.Session{s}})
	want := Row{Key: "abc", Focus: view.Place{Terminal: terminal.Terminal{TmuxPane: "%7"}, Dir: "/home/dev/api/src"}}
	if got := v.Rows[0]; got.Key != want.Key || got.Focus != want.Focus {
		t.Errorf("row = %+v, want key and focus of %+v", got, want)
	}
	if !strings.Contains(v.Rows[0].Tooltip, "tmux pane %7") {
		t.Errorf("tooltip %q does not say what a click does", v.Rows[0].Tooltip)
	}
}

func TestRowsCarryActivity(t *testing.T) {
	busy := session("a", "api", store.StateWorking, time.Minute)
	busy.Activity = &activity.Facts{TodosDone: 3, TodosTotal: 7, FilesEdited: 12, Branch: "main", Dirty: true, Commits: 2}
	quiet := session("b", "web", store.StateReady, time.Minute)
	v := Present(Input{Now: now, Sessions: []view.Session{busy, quiet}})
	if v.Rows[0].Detail != "3/7 todos · 12 files · main* · 2 commits" || v.Rows[1].Detail != "" {
		t.Errorf("details %q, %q", v.Rows[0].Detail, v.Rows[1].Detail)
	}
}

func TestMoreThanMaxRows(t *testing.T) {
	var sessions []view.Session
	for i := range 13 {
		sessions = append(sessions, session(fmt.Sprint(i), fmt.Sprintf("p%02d", i), store.StateReady, time.Hour))
	}
	v := Present(Input{Now: now, Sessions: sessions, MaxRows: 10})
	if more := MoreLine(v.Hidden); len(v.Rows) != 10 || more != "3 more — run 'hud status' to see all" || v.Count != 13 || v.Hidden != 3 {
		t.Errorf("rows %d, more %q (%d hidden), count %d", len(v.Rows), more, v.Hidden, v.Count)
	}
}

func TestLongPromptIsCut(t *testing.T) {
	s := session("s", "api", store.StateWorking, 0)
	s.WorkingOn = strings.Repeat("é", 200)
	label := Present(Input{Now: now, Sessions: []view.Session{s}}).Rows[0].Label
	if n := len([]rune(label)); n > 100 {
		t.Errorf("label has %d runes: %q", n, label)
	}
}

// TestMenuShowsNoControlCharacters: a project directory, a prompt and an
// activity line with terminal escapes and line breaks reach the menu and
// tooltips as plain single lines.
func TestMenuShowsNoControlCharacters(t *testing.T) {
	const evil = "\x1b]0;pwned\x07a\nb\x1b[2J"
	s := session("s", "/tmp/"+evil, store.StateWorking, 0)
	s.CWD, s.WorkingOn, s.Activity = s.ProjectDir, evil, &activity.Facts{Branch: evil}
	v := Present(Input{Now: now, Sessions: []view.Session{s}})
	r := v.Rows[0]
	for what, got := range map[string]string{"label": r.Label, "detail": r.Detail, "row tooltip": r.Tooltip, "tooltip": v.Tooltip} {
		if strings.ContainsFunc(got, func(c rune) bool { return c != '\n' && unicode.IsControl(c) }) ||
			what != "row tooltip" && what != "tooltip" && strings.Contains(got, "\n") {
			t.Errorf("%s: %q", what, got)
		}
	}
}

func TestRowCountsAgents(t *testing.T) {
	s := session("s", "api", store.StateWorking, time.Minute)
	s.WorkingOn, s.Subagents = "fix it", 1
	waiting := session("w", "web", store.StateWaiting, time.Minute)
	waiting.WaitingFor, waiting.Subagents = "Choice: Which database?", 2
	v := Present(Input{Now: now, Sessions: []view.Session{s, waiting}})
	for _, want := range []string{`web — waiting 1m — 2 agents running · Choice: Which database?`, `api — working 1m — 1 agent running · "fix it"`} {
		if !strings.Contains(v.Tooltip, want) {
			t.Errorf("no %q in\n%s", want, v.Tooltip)
		}
	}
}

// A remote session's row brings its tmux pane over ssh, and nothing here:
// its process and folder are on the other machine.
func TestRemoteRowFocus(t *testing.T) {
	s := session("abc", "api", store.StateReady, time.Minute)
	s.Host, s.TmuxPane, s.PID, s.CWD = "devbox", "%7", 4242, "/home/dev/api"
	s.KittyWindow, s.KittyListenOn = "3", "unix:/tmp/k"
	v := Present(Input{Now: now, Sessions: []view.Session{s}})
	want := view.Place{Host: "devbox", Terminal: terminal.Terminal{TmuxPane: "%7"}}
	if got := v.Rows[0].Focus; got != want {
		t.Errorf("focus %+v, want %+v", got, want)
	}
	if !strings.Contains(v.Rows[0].Tooltip, "attach to its tmux pane over ssh") {
		t.Errorf("tooltip %q does not say what a click does", v.Rows[0].Tooltip)
	}
}

// TestRowSaysTheAgent: the row of another agent's session names the agent;
// two sessions of one project by different agents are told apart.
func TestRowSaysTheAgent(t *testing.T) {
	claude := session("a", "api", store.StateWorking, time.Minute)
	codex := session("b", "api", store.StateWaiting, time.Minute)
	codex.Agent = "codex"
	v := Present(Input{Now: now, Sessions: []view.Session{claude, codex}})
	var labels []string
	for _, r := range v.Rows {
		labels = append(labels, r.Label)
	}
	got := strings.Join(labels, " | ")
	if !strings.Contains(got, "api (Codex)") || strings.Contains(got, "api (2)") {
		t.Errorf("rows %q: want the Codex session named api (Codex)", got)
	}
	if !strings.HasPrefix(v.Tooltip, "Coding agents: ") {
		t.Errorf("tooltip %q: want it headed for every agent", v.Tooltip)
	}
	if v := Present(Input{Now: now, Sessions: []view.Session{claude}}); !strings.HasPrefix(v.Tooltip, "Claude Code: ") {
		t.Errorf("Claude alone: tooltip %q", v.Tooltip)
	}
}

// TestRowSaysTheContext: a session's row names how full its context
// window is, its tooltip with the tokens; one whose context is unknown
// says nothing of it.
func TestRowSaysTheContext(t *testing.T) {
	full := session("a", "api", store.StateWorking, time.Minute)
	full.Context = &resolver.Context{Tokens: 174_000, Window: 200_000}
	v := Present(Input{Now: now, Sessions: []view.Session{full, session("b", "web", store.StateReady, time.Minute)}})
	if got := v.Rows[0].Label; got != "api — working 1m · ctx 87%" {
		t.Errorf("label %q", got)
	}
	if !strings.Contains(v.Rows[0].Tooltip, "Context 87 % (174k of 200k tokens)") {
		t.Errorf("tooltip %q", v.Rows[0].Tooltip)
	}
	if got := v.Rows[1].Label; strings.Contains(got, "ctx") {
		t.Errorf("label %q of a session whose context is unknown", got)
	}
}

// TestAccountsInTooltipAndMenu: known usage limits are listed under the
// sessions and in the tooltip, and the picture is redrawn when a window
// resets; with none known, nothing is said of them.
func TestAccountsInTooltipAndMenu(t *testing.T) {
	five := &resolver.RateLimit{UsedPercent: 42, ResetsAt: now.Add(30 * time.Minute)}
	known := view.Accounts("/home/dev", []resolver.Account{{At: now, FiveHour: five}})
	v := Present(Input{Now: now, Accounts: known})
	want := "Usage ~/.claude: 5h 42% (resets in 30m) · week unknown · learnt now"
	if len(v.Accounts) != 1 || v.Accounts[0] != want || !strings.HasSuffix(v.Tooltip, "\n"+want) {
		t.Errorf("accounts %q, tooltip %q", v.Accounts, v.Tooltip)
	}
	if !v.NextChange.Equal(five.ResetsAt) || !v.NextLabel.Equal(now.Add(time.Minute)) {
		t.Errorf("next change %v, next label %v", v.NextChange, v.NextLabel)
	}
	v = Present(Input{Now: now, Accounts: view.Accounts("/home/dev", []resolver.Account{{}})})
	if len(v.Accounts) != 0 || strings.Contains(v.Tooltip, "Usage") {
		t.Errorf("unknown usage shown: %q, %q", v.Accounts, v.Tooltip)
	}
}
