package notify

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// at is t0 plus seconds.
func at(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }

func waiting(id string, since int, what string) view.Session {
	return view.Session{Key: id, SessionID: id, ProjectDir: "/home/u/" + id, State: store.StateWaiting, Since: at(since), WaitingFor: what}
}

func codex(s view.Session) view.Session {
	s.Agent = "codex"
	return s
}

func working(id string, since, turn int) view.Session {
	return view.Session{Key: id, SessionID: id, ProjectDir: "/home/u/" + id, State: store.StateWorking, Since: at(since), TurnStartedAt: at(turn), WorkingOn: "fix the tests"}
}

func named(s view.Session, name string) view.Session {
	s.ClaudeName = name
	return s
}

func ready(id string, since, turn int) view.Session {
	return view.Session{Key: id, SessionID: id, ProjectDir: "/home/u/" + id, State: store.StateReady, Since: at(since), TurnStartedAt: at(turn), WorkingOn: "fix the tests"}
}

// step is one Update: the sessions at a moment, and what must come out.
type step struct {
	now      int
	sessions []view.Session
	// want lists the notifications as "kind title | body".
	want []string
	// next is the deadline returned, in seconds after t0; -1 for none.
	next int
}

func TestTracker(t *testing.T) {
	defaults := config.Default().Notifications
	tests := []struct {
		name  string
		cfg   func(*config.Notifications)
		steps []step
	}{
		{
			name: "waiting is announced at once, reminded once after 2m",
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 10, sessions: []view.Session{waiting("api", 10, "Bash: npm test")},
					want: []string{"waiting api needs you | Bash: npm test"}, next: 130},
				{now: 60, sessions: []view.Session{waiting("api", 10, "Bash: npm test")}, next: 130},
				{now: 130, sessions: []view.Session{waiting("api", 10, "Bash: npm test")},
					want: []string{"still-waiting api is still waiting | Waiting for 2m: Bash: npm test"}, next: -1},
				{now: 400, sessions: []view.Session{waiting("api", 10, "Bash: npm test")}, next: -1},
			},
		},
		{
			name: "Claude's name for the session is said beside the project",
			steps: []step{
				{now: 0, sessions: []view.Session{named(working("api", 0, 0), "auth refactor")}, next: -1},
				{now: 10, sessions: []view.Session{named(waiting("api", 10, "Bash: npm test"), "auth refactor")},
					want: []string{"waiting api · auth refactor needs you | Bash: npm test"}, next: 130},
			},
		},
		{
			name: "answered before the reminder: no reminder",
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 5, sessions: []view.Session{waiting("api", 5, "Edit")}, want: []string{"waiting api needs you | Edit"}, next: 125},
				{now: 20, sessions: []view.Session{working("api", 20, 0)}, next: -1},
				{now: 125, sessions: []view.Session{working("api", 20, 0)}, next: -1},
			},
		},
		{
			name: "the next request after working is announced again",
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 5, sessions: []view.Session{waiting("api", 5, "Bash: ls")}, want: []string{"waiting api needs you | Bash: ls"}, next: 125},
				{now: 7, sessions: []view.Session{working("api", 7, 0)}, next: -1},
				{now: 9, sessions: []view.Session{waiting("api", 9, "Bash: rm")}, want: []string{"waiting api needs you | Bash: rm"}, next: 129},
			},
		},
		{
			// Claude Code's file says waiting first, then the hook's record
			// takes over with a later Since and a better text: one request.
			name: "still one request when Since and text move while waiting",
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 5, sessions: []view.Session{waiting("api", 5, "permission prompt")}, want: []string{"waiting api needs you | permission prompt"}, next: 125},
				{now: 6, sessions: []view.Session{waiting("api", 6, "Bash: rm -rf build")}, next: 125},
				{now: 125, sessions: []view.Session{waiting("api", 6, "Bash: rm -rf build")},
					want: []string{"still-waiting api is still waiting | Waiting for 2m: Bash: rm -rf build"}, next: -1},
			},
		},
		{
			name: "another agent's session says which agent it is",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 5, sessions: []view.Session{codex(waiting("api", 5, ""))},
					want: []string{"waiting api (Codex) needs you | Codex is waiting for you."}, next: 125},
				{now: 300, sessions: []view.Session{codex(waiting("api", 5, ""))},
					want: []string{"still-waiting api (Codex) is still waiting | Waiting for 4m"}, next: -1},
			},
		},
		{
			name: "the reminder timer is late: it still comes once",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 5, sessions: []view.Session{waiting("api", 5, "")}, want: []string{"waiting api needs you | Claude is waiting for you."}, next: 125},
				{now: 300, sessions: []view.Session{waiting("api", 5, "")}, want: []string{"still-waiting api is still waiting | Waiting for 4m"}, next: -1},
			},
		},
		{
			name: "seen late: announced, and no second word at the same moment",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 200, sessions: []view.Session{waiting("api", 10, "Bash: make")}, want: []string{"waiting api needs you | Bash: make"}, next: -1},
			},
		},
		{
			name: "at start: already waiting is not announced, its reminder still comes",
			steps: []step{
				{now: 60, sessions: []view.Session{waiting("api", 0, "Bash: make"), waiting("web", -600, "Bash: go")}, next: 120},
				{now: 120, sessions: []view.Session{waiting("api", 0, "Bash: make"), waiting("web", -600, "Bash: go")},
					want: []string{"still-waiting api is still waiting | Waiting for 2m: Bash: make"}, next: -1},
			},
		},
		{
			name: "several sessions: the earliest deadline, each reminder once",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 10, sessions: []view.Session{waiting("a", 10, "x"), waiting("b", 0, "y")},
					want: []string{"waiting a needs you | x", "waiting b needs you | y"}, next: 120},
				{now: 120, sessions: []view.Session{waiting("a", 10, "x"), waiting("b", 0, "y")},
					want: []string{"still-waiting b is still waiting | Waiting for 2m: y"}, next: 130},
				{now: 130, sessions: []view.Session{waiting("a", 10, "x"), waiting("b", 0, "y")},
					want: []string{"still-waiting a is still waiting | Waiting for 2m: x"}, next: -1},
			},
		},
		{
			name: "a session that ends takes its reminder with it",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 1, sessions: []view.Session{waiting("a", 1, "x")}, want: []string{"waiting a needs you | x"}, next: 121},
				{now: 2, sessions: nil, next: -1},
			},
		},
		{
			// A remote machine's sessions leave the list while its
			// connection is down and come back with it: the request they
			// still wait on was announced already.
			name: "back from an absence, the same wait: not announced again",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 1, sessions: []view.Session{waiting("a", 1, "x")}, want: []string{"waiting a needs you | x"}, next: 121},
				{now: 30, sessions: nil, next: -1},
				{now: 60, sessions: []view.Session{waiting("a", 1, "x")}, next: 121},
				{now: 121, sessions: []view.Session{waiting("a", 1, "x")},
					want: []string{"still-waiting a is still waiting | Waiting for 2m: x"}, next: -1},
			},
		},
		{
			name: "back from an absence, a wait that began meanwhile: announced",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 1, sessions: []view.Session{waiting("a", 1, "x")}, want: []string{"waiting a needs you | x"}, next: 121},
				{now: 30, sessions: nil, next: -1},
				{now: 60, sessions: []view.Session{waiting("a", 45, "y")}, want: []string{"waiting a needs you | y"}, next: 165},
			},
		},
		{
			name: "the reminder of a wait that came due during an absence comes on return",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 1, sessions: []view.Session{waiting("a", 1, "x")}, want: []string{"waiting a needs you | x"}, next: 121},
				{now: 30, sessions: nil, next: -1},
				{now: 300, sessions: []view.Session{waiting("a", 1, "x")},
					want: []string{"still-waiting a is still waiting | Waiting for 4m: x"}, next: -1},
			},
		},
		{
			// A turn that ended while the session was out of sight ended
			// at an unknown distance: no "done" for it.
			name: "back from an absence, ready after working: no done",
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 10, sessions: nil, next: -1},
				{now: 900, sessions: []view.Session{ready("api", 800, 0)}, next: -1},
			},
		},
		{
			name: "gone for more than a day: its wait is news again",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 1, sessions: []view.Session{waiting("a", 1, "x")}, want: []string{"waiting a needs you | x"}, next: 121},
				{now: 2, sessions: nil, next: -1},
				{now: 2 + 86400, sessions: nil, next: -1},
				{now: 3 + 86400, sessions: []view.Session{waiting("a", 1, "x")}, want: []string{"waiting a needs you | x"}, next: -1},
			},
		},
		{
			name: "a long turn ends: done",
			steps: []step{
				{now: 0, sessions: []view.Session{ready("api", 0, 0)}, next: -1},
				{now: 10, sessions: []view.Session{working("api", 10, 10)}, next: -1},
				{now: 40, sessions: []view.Session{ready("api", 40, 10)}, want: []string{"done api is done | Finished after 30s: fix the tests"}, next: -1},
			},
		},
		{
			name: "a short turn ends: nothing",
			steps: []step{
				{now: 0, sessions: []view.Session{ready("api", 0, 0)}, next: -1},
				{now: 10, sessions: []view.Session{working("api", 10, 10)}, next: -1},
				{now: 39, sessions: []view.Session{ready("api", 39, 10)}, next: -1},
			},
		},
		{
			name: "the turn counts from its start, waits included",
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 10, sessions: []view.Session{waiting("api", 10, "Edit")}, want: []string{"waiting api needs you | Edit"}, next: 130},
				{now: 20, sessions: []view.Session{working("api", 20, 0)}, next: -1},
				{now: 35, sessions: []view.Session{ready("api", 35, 0)}, want: []string{"done api is done | Finished after 35s: fix the tests"}, next: -1},
			},
		},
		{
			name: "no turn start recorded: the Tracker's own",
			steps: []step{
				{now: 0, sessions: []view.Session{{Key: "x", ProjectDir: "/p/x", State: store.StateReady, Since: at(0)}}, next: -1},
				{now: 5, sessions: []view.Session{{Key: "x", ProjectDir: "/p/x", State: store.StateWorking, Since: at(5)}}, next: -1},
				{now: 100, sessions: []view.Session{{Key: "x", ProjectDir: "/p/x", State: store.StateReady, Since: at(100)}},
					want: []string{"done x is done | Finished after 1m"}, next: -1},
			},
		},
		{
			name: "interrupted with Esc: no done",
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 100, sessions: []view.Session{func() view.Session { s := ready("api", 95, 0); s.ByClaude = true; return s }()}, next: -1},
			},
		},
		{
			name: "working at start then ready: done (the turn start is recorded)",
			steps: []step{
				{now: 60, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 90, sessions: []view.Session{ready("api", 90, 0)}, want: []string{"done api is done | Finished after 1m: fix the tests"}, next: -1},
			},
		},
		{
			name: "compacting then ready: no done",
			steps: []step{
				{now: 0, sessions: []view.Session{{Key: "c", State: store.StateCompacting, Since: at(0)}}, next: -1},
				{now: 100, sessions: []view.Session{{Key: "c", State: store.StateReady, Since: at(100)}}, next: -1},
			},
		},
		{
			name: "switched off",
			cfg: func(c *config.Notifications) {
				c.Permission, c.Done, c.StillWaitingAfter = false, false, 0
			},
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 10, sessions: []view.Session{waiting("api", 10, "Bash")}, next: -1},
				{now: 200, sessions: []view.Session{working("api", 200, 0)}, next: -1},
				{now: 300, sessions: []view.Session{ready("api", 300, 0)}, next: -1},
			},
		},
		{
			name: "reminder without the first word",
			cfg:  func(c *config.Notifications) { c.Permission = false },
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 10, sessions: []view.Session{waiting("api", 10, "Bash")}, next: 130},
				{now: 130, sessions: []view.Session{waiting("api", 10, "Bash")}, want: []string{"still-waiting api is still waiting | Waiting for 2m: Bash"}, next: -1},
			},
		},
		{
			name: "thresholds from the config",
			cfg: func(c *config.Notifications) {
				c.StillWaitingAfter, c.DoneAfterTurn = 10*time.Second, 5*time.Second
			},
			steps: []step{
				{now: 0, sessions: []view.Session{working("api", 0, 0)}, next: -1},
				{now: 5, sessions: []view.Session{ready("api", 5, 0)}, want: []string{"done api is done | Finished after 5s: fix the tests"}, next: -1},
				{now: 6, sessions: []view.Session{waiting("api", 6, "q")}, want: []string{"waiting api needs you | q"}, next: 16},
			},
		},
		{
			name: "no Since: the moment it is first seen",
			steps: []step{
				{now: 0, sessions: nil, next: -1},
				{now: 7, sessions: []view.Session{{Key: "0123456789", State: store.StateWaiting}}, want: []string{"waiting session 01234567 needs you | Claude is waiting for you."}, next: 127},
				{now: 20, sessions: []view.Session{{Key: "0123456789", State: store.StateWaiting}}, next: 127},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := defaults
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			tr := NewTracker(cfg)
			for i, st := range tt.steps {
				out, next := tr.Update(st.sessions, at(st.now))
				var got []string
				for _, n := range out {
					got = append(got, fmt.Sprintf("%s %s | %s", n.Kind, n.Title, n.Body))
				}
				if strings.Join(got, "\n") != strings.Join(st.want, "\n") {
					t.Errorf("step %d (t=%ds): got\n  %s\nwant\n  %s", i, st.now, strings.Join(got, "\n  "), strings.Join(st.want, "\n  "))
				}
				wantNext := time.Time{}
				if st.next >= 0 {
					wantNext = at(st.next)
				}
				if !next.Equal(wantNext) {
					t.Errorf("step %d (t=%ds): next = %v, want %v", i, st.now, next, wantNext)
				}
			}
		})
	}
}

func TestSetConfigMovesPendingReminder(t *testing.T) {
	tr := NewTracker(config.Default().Notifications)
	tr.Update(nil, at(0))
	if _, next := tr.Update([]view.Session{waiting("a", 0, "x")}, at(0)); !next.Equal(at(120)) {
		t.Fatalf("next = %v", next)
	}
	cfg := config.Default().Notifications
	cfg.StillWaitingAfter = 5 * time.Minute
	tr.SetConfig(cfg)
	if _, next := tr.Update([]view.Session{waiting("a", 0, "x")}, at(1)); !next.Equal(at(300)) {
		t.Errorf("after SetConfig next = %v, want t0+5m", next)
	}
	cfg.StillWaitingAfter = 0
	tr.SetConfig(cfg)
	if _, next := tr.Update([]view.Session{waiting("a", 0, "x")}, at(2)); !next.IsZero() {
		t.Errorf("reminders off: next = %v", next)
	}
}

// Two live locks whose sessions have no id yet (no record, no session id
// in the lock) are two sessions: sharing one Tracker entry made the one
// that waits look new on every update, and announced it every time.
func TestSessionsWithoutIDAreKeptApart(t *testing.T) {
	tr := NewTracker(config.Default().Notifications)
	resolved := []resolver.Session{
		{State: store.StateWaiting, Since: at(0), CWD: "/home/u/api",
			Lock: &resolver.Lock{Dir: "/l/a"}, Opinion: &resolver.ClaudeSession{}},
		{State: store.StateWorking, Since: at(0), CWD: "/home/u/web",
			Lock: &resolver.Lock{Dir: "/l/b"}},
	}
	for sec := range 3 {
		out, _ := tr.Update(view.All(resolved), at(sec))
		if len(out) != 0 {
			t.Errorf("update %d: nothing changed, got %+v", sec, out)
		}
	}
}
