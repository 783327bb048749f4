package resolver

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

// claudeAt is Claude Code's session file for process pid and session sid,
// with status since statusAge ago.
func claudeAt(pid int, sid, status string, statusAge time.Duration) ClaudeSession {
	ms := now.Add(-statusAge).UnixMilli()
	c := ClaudeSession{PID: pid, SessionID: sid, CWD: "/project", ProcStart: "68797", Status: status, UpdatedAt: ms, StatusUpdatedAt: ms}
	if status == ClaudeStatusWaiting {
		c.WaitingFor = "permission prompt"
	}
	return c
}

// notified makes r's last event a Notification (idle_prompt) at its
// updated_at.
func notified(r *store.Record) *store.Record {
	r.LastEvent = &store.LastEvent{Event: "Notification", Timestamp: r.UpdatedAt}
	return r
}

// started makes r's last event its SessionStart, at its updated_at.
func started(r *store.Record) *store.Record {
	r.LastEvent = &store.LastEvent{Event: "SessionStart", Timestamp: r.UpdatedAt}
	return r
}

// agentEnded makes r's last event a SubagentStop, at its updated_at.
func agentEnded(r *store.Record) *store.Record {
	r.LastEvent = &store.LastEvent{Event: "SubagentStop", Timestamp: r.UpdatedAt}
	return r
}

// withAgent makes r count one subagent running.
func withAgent(r *store.Record) *store.Record {
	r.Subagents = []string{"a1"}
	return r
}

// prompted makes r's last event a UserPromptSubmit, at its updated_at.
func prompted(r *store.Record) *store.Record {
	r.LastEvent = &store.LastEvent{Event: "UserPromptSubmit", Timestamp: r.UpdatedAt}
	return r
}

func TestSecondOpinion(t *testing.T) {
	// The record's last event was 20 s ago, its state changed 30 s ago.
	record := func(state store.State) *store.Record {
		r := rec("s", state, "/project", 20*time.Second, ofProc(pidA, startedA))
		r.StateChangedAt = store.At(now.Add(-30 * time.Second))
		return r
	}
	tests := []struct {
		name      string
		record    *store.Record
		claude    ClaudeSession
		wantState store.State // "" means the hooks stay in charge
	}{
		{"Esc interrupt: idle 10 s, no event since, working → ready", record(store.StateWorking), claudeAt(pidA, "s", "idle", 10*time.Second), store.StateReady},
		{"Esc mid-answer: idle for its confirmation → ready", record(store.StateWorking), claudeAt(pidA, "s", "idle", ClaudeIdleAfter), store.StateReady},
		{"Esc mid-answer: idle 1 ms short of its confirmation: not yet", record(store.StateWorking), claudeAt(pidA, "s", "idle", ClaudeIdleAfter-time.Millisecond), ""},
		{"Esc mid-answer: idle 1 s → ready", record(store.StateWorking), claudeAt(pidA, "s", "idle", time.Second), store.StateReady},
		{"idle since the very instant of the last event", record(store.StateWorking), claudeAt(pidA, "s", "idle", 20*time.Second), store.StateReady},
		{"idle, but an event came after it (the file lags a prompt)", record(store.StateWorking), claudeAt(pidA, "s", "idle", 25*time.Second), ""},
		{"idle, then idle_prompt (a stale tool count kept the record working): still ready", notified(record(store.StateWorking)), claudeAt(pidA, "s", "idle", 25*time.Second), store.StateReady},
		{"idle, then a notification, but work began after the idle: working", notified(record(store.StateWorking)), claudeAt(pidA, "s", "idle", 35*time.Second), ""},
		{"dialog dismissed with Esc: waiting → ready", record(store.StateWaiting), claudeAt(pidA, "s", "idle", 10*time.Second), store.StateReady},
		{"dialog denied or dismissed, idle for its confirmation: waiting → ready", record(store.StateWaiting), claudeAt(pidA, "s", "idle", 300*time.Millisecond), store.StateReady},
		{"dialog denied, idle only 100 ms: ready at once (the dialog is gone)", record(store.StateWaiting), claudeAt(pidA, "s", "idle", 100*time.Millisecond), store.StateReady},
		{"a background agent ended, Claude idle 1 s before going on with its result: working stays", agentEnded(record(store.StateWorking)), claudeAt(pidA, "s", "idle", time.Second), ""},
		{"a background agent ended, idle 1 ms short of ClaudeAgentIdleAfter: working stays", agentEnded(record(store.StateWorking)), claudeAt(pidA, "s", "idle", ClaudeAgentIdleAfter-time.Millisecond), ""},
		{"a background agent ended, idle ClaudeAgentIdleAfter (no turn came): ready", agentEnded(record(store.StateWorking)), claudeAt(pidA, "s", "idle", ClaudeAgentIdleAfter), store.StateReady},
		{"a subagent running, idle 1 s: working stays", withAgent(record(store.StateWorking)), claudeAt(pidA, "s", "idle", time.Second), ""},
		{"a subagent running, idle ClaudeAgentIdleAfter: ready", withAgent(record(store.StateWorking)), claudeAt(pidA, "s", "idle", ClaudeAgentIdleAfter), store.StateReady},
		{"idle while ready: nothing to correct", record(store.StateReady), claudeAt(pidA, "s", "idle", 10*time.Second), ""},
		{"idle after PreCompact, 1 ms short of its confirmation: compacting stays", record(store.StateCompacting), claudeAt(pidA, "s", "idle", ClaudeIdleAfter-time.Millisecond), ""},
		{"idle before compaction began (fixture 17): compacting stays", record(store.StateCompacting), claudeAt(pidA, "s", "idle", 40*time.Second), ""},
		{"a refused /compact: idle 10 s after it, compacting → ready", record(store.StateCompacting), claudeAt(pidA, "s", "idle", 10*time.Second), store.StateReady},
		{"a refused /compact: idle for its confirmation → ready", record(store.StateCompacting), claudeAt(pidA, "s", "idle", ClaudeIdleAfter), store.StateReady},
		{"a refused /compact: idle 1 s → ready", record(store.StateCompacting), claudeAt(pidA, "s", "idle", time.Second), store.StateReady},
		{"approved: busy after the dialog, waiting → working", record(store.StateWaiting), claudeAt(pidA, "s", "busy", 10*time.Second), store.StateWorking},
		{"busy from before the dialog (the file lags the hook): waiting stays", record(store.StateWaiting), claudeAt(pidA, "s", "busy", 35*time.Second), ""},
		{"busy while compacting says nothing", record(store.StateCompacting), claudeAt(pidA, "s", "busy", time.Second), ""},
		{"prompt sent, its hook not landed: busy after the record's ready → working", record(store.StateReady), claudeAt(pidA, "s", "busy", time.Second), store.StateWorking},
		{"prompt sent: busy 1 ms after the record's last event → working", record(store.StateReady), claudeAt(pidA, "s", "busy", 20*time.Second-time.Millisecond), store.StateWorking},
		{"busy since the instant of the Stop: ready stays", record(store.StateReady), claudeAt(pidA, "s", "busy", 20*time.Second), ""},
		{"busy from before the Stop (the file lags the Stop hook): ready stays", record(store.StateReady), claudeAt(pidA, "s", "busy", 25*time.Second), ""},
		{"busy while working says nothing", record(store.StateWorking), claudeAt(pidA, "s", "busy", time.Second), ""},
		{"waiting while the record says working", record(store.StateWorking), claudeAt(pidA, "s", "waiting", time.Second), store.StateWaiting},
		{"waiting while the record says ready", record(store.StateReady), claudeAt(pidA, "s", "waiting", time.Second), store.StateWaiting},
		{"waiting, then a heartbeat event: still waiting", record(store.StateWorking), claudeAt(pidA, "s", "waiting", 25*time.Second), store.StateWaiting},
		{"waiting older than the record's state (approved, PostToolUse moved on)", record(store.StateWorking), claudeAt(pidA, "s", "waiting", 40*time.Second), ""},
		{"waiting while waiting: no change", record(store.StateWaiting), claudeAt(pidA, "s", "waiting", time.Second), ""},
		{"startup question: waiting after SessionStart", started(record(store.StateReady)), claudeAt(pidA, "s", "waiting", time.Second), store.StateWaiting},
		{"startup question open before a slow SessionStart hook wrote", started(record(store.StateReady)), claudeAt(pidA, "s", "waiting", 40*time.Second), store.StateWaiting},
		{"waiting from before a prompt (the file lags a UserPromptSubmit)", prompted(record(store.StateWorking)), claudeAt(pidA, "s", "waiting", 40*time.Second), ""},
		{"print mode: no status", record(store.StateWorking), ClaudeSession{PID: pidA, SessionID: "s"}, ""},
		{"a release that writes no status, idle long after the record", record(store.StateWorking), ClaudeSession{PID: pidA, SessionID: "s", StatusUpdatedAt: now.Add(-10 * time.Second).UnixMilli()}, ""},
		{"a status without a time", record(store.StateWorking), ClaudeSession{PID: pidA, SessionID: "s", Status: "idle"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state, since, ok := SecondOpinion(tt.record, &tt.claude, now)
			if tt.wantState == "" {
				if ok {
					t.Errorf("got %s since %v, want the record's own state", state, since)
				}
				return
			}
			if !ok || state != tt.wantState {
				t.Errorf("got %q (ok %v), want %s", state, ok, tt.wantState)
			}
			if !since.Equal(tt.claude.StatusSince()) {
				t.Errorf("since %v, want Claude's status time %v", since, tt.claude.StatusSince())
			}
		})
	}
	if _, _, ok := SecondOpinion(nil, &ClaudeSession{}, now); ok {
		t.Error("nil record")
	}
	if _, _, ok := SecondOpinion(record(store.StateWorking), nil, now); ok {
		t.Error("nil Claude session")
	}
}

// TestSecondOpinionInResolution follows the recorded Esc interrupt
// (fixtures 21→22): a prompt, Claude busy, then Esc and no Stop.
func TestSecondOpinionInResolution(t *testing.T) {
	// Fixture 21's file, as Claude wrote it during the slow answer.
	const fixture21 = `{"pid":12975,"sessionId":"7261fbe8-c132-4197-8154-4b9c1e3e818d","cwd":"/home/dev/proj","startedAt":1795323455725,"procStart":"68797","version":"2.1.197","peerProtocol":1,"kind":"interactive","entrypoint":"cli","name":"proj-81","nameSource":"derived","status":"busy","updatedAt":1795323488062,"statusUpdatedAt":1795323488062}`
	var busy ClaudeSession
	if err := json.Unmarshal([]byte(fixture21), &busy); err != nil {
		t.Fatal(err)
	}
	const pid, started = 12975, 1795323400
	promptAt := time.UnixMilli(busy.StatusUpdatedAt).Add(-50 * time.Millisecond)
	record := &store.Record{
		SessionID: busy.SessionID, State: store.StateWorking, CWD: busy.CWD, WorkingOn: "SLOW:30 take your time",
		UpdatedAt: store.At(promptAt), StateChangedAt: store.At(promptAt), PID: pid, ProcStarted: started,
	}
	lk := Lock{Dir: "/x/" + paths.LockName(busy.CWD, pid), LockMeta: LockMeta{PID: pid, Path: busy.CWD, ProcStarted: started, SessionID: busy.SessionID}}
	live := func(p int, s int64) bool { return p == pid && (s == 0 || s == started) }
	snap := func(c ClaudeSession) Snapshot {
		s := snapshot([]Lock{lk}, record)
		s.Claude = []ClaudeSession{c}
		return s
	}

	// While the answer streams, Claude says busy: working.
	at := promptAt.Add(8 * time.Second)
	if res, ok := ResolveState(snap(busy), busy.CWD, at, live); !ok || res.State != store.StateWorking || res.Opinion != nil {
		t.Fatalf("while busy: %+v %v", res.Session, ok)
	}

	// Esc at +10 s: Claude writes idle, no hook fires.
	escAt := promptAt.Add(10 * time.Second)
	idle := busy
	idle.Status, idle.StatusUpdatedAt, idle.UpdatedAt = ClaudeStatusIdle, escAt.UnixMilli(), escAt.UnixMilli()
	for _, tt := range []struct {
		after time.Duration
		want  store.State
	}{
		{ClaudeIdleAfter - time.Millisecond, store.StateWorking},
		{ClaudeIdleAfter, store.StateReady},
		{time.Second, store.StateReady},
		{time.Minute, store.StateReady},
	} {
		sessions := ResolveAll(snap(idle), escAt.Add(tt.after), live)
		if len(sessions) != 1 || sessions[0].State != tt.want {
			t.Errorf("%v after Esc: %s, want %s", tt.after, summary(sessions), tt.want)
			continue
		}
		if tt.want == store.StateReady && (!sessions[0].Since.Equal(escAt.Truncate(time.Millisecond)) || sessions[0].Opinion == nil) {
			t.Errorf("ready since %v (opinion %v), want since the Esc at %v", sessions[0].Since, sessions[0].Opinion, escAt)
		}
	}

	// A file naming another session of the same process (the lag right
	// after /clear, fixture 23) or another process says nothing.
	other := idle
	other.SessionID = "e18a1245-1727-4a9c-8229-75a4d16ce53b"
	if res, _ := ResolveState(snap(other), busy.CWD, escAt.Add(time.Minute), live); res.State != store.StateWorking {
		t.Errorf("file of another session: %s, want working", res.State)
	}
	other = idle
	other.PID = 999
	if res, _ := ResolveState(snap(other), busy.CWD, escAt.Add(time.Minute), live); res.State != store.StateWorking {
		t.Errorf("file of another process: %s, want working", res.State)
	}
}

func TestSecondOpinionWaitingWinsAttention(t *testing.T) {
	// Two sessions in one project, both working by their records; Claude
	// says one of them shows a dialog. That one decides the project.
	snap := snapshot(
		[]Lock{lock("/p", pidA, startedA, "a"), lock("/p", pidB, startedB, "b")},
		rec("a", store.StateWorking, "/p", 10*time.Second, ofProc(pidA, startedA)),
		rec("b", store.StateWorking, "/p", time.Minute, ofProc(pidB, startedB)),
	)
	snap.Claude = []ClaudeSession{claudeAt(pidB, "b", ClaudeStatusWaiting, 5*time.Second)}
	res, ok := ResolveState(snap, "/p", now, alive)
	if !ok || res.SessionID != "b" || res.State != store.StateWaiting {
		t.Errorf("got %s %s, want b waiting", res.SessionID, res.State)
	}
	if got := Aggregate(ResolveAll(snap, now, alive)); got != store.StateWaiting {
		t.Errorf("aggregate %s, want waiting", got)
	}
}
