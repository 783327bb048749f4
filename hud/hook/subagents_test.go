package hook

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/capacitor-hud/hud/hud/hookevents"
	"github.com/capacitor-hud/hud/internal/store"
)

// stepReleases are the Claude Code releases whose agents/, question/ and
// plan/ recordings are replayed step by step below: each release hud was
// proven against since the scenarios were recorded, so a change between
// them shows as the step that moved.
var stepReleases = []string{"2.1.330", "2.1.332"}

// recording is the directory of one release's recorded scenario.
func recording(release, scenario string) string {
	return filepath.Join("../../testdata/hook/claude-code-"+release, scenario)
}

// agents checks how many agents a record counts.
func agents(n int) func(t *testing.T, r *store.Record) {
	return func(t *testing.T, r *store.Record) {
		t.Helper()
		if len(r.Subagents) != n {
			t.Errorf("agents %v, want %d", r.Subagents, n)
		}
	}
}

// waitingFor checks a record's waiting_for.
func waitingFor(want string) func(t *testing.T, r *store.Record) {
	return func(t *testing.T, r *store.Record) {
		t.Helper()
		if r.WaitingFor != want {
			t.Errorf("waiting_for %q, want %q", r.WaitingFor, want)
		}
	}
}

// TestReplayBackgroundAgent: Claude Code (2.1.330 on) runs a subagent in
// the background; the main turn's Stop fires at once, listing it in
// background_tasks, and Claude continues by itself with a
// <task-notification> turn when it returns. The session works until that
// turn's Stop, and keeps the person's prompt.
func TestReplayBackgroundAgent(t *testing.T) {
	// Claude starts the Agent call's PostToolUse hook and the subagent's
	// SubagentStart together; the recordings have them in either order.
	for _, c := range []struct {
		release string
		launch  []fixtureStep
	}{
		{"2.1.330", []fixtureStep{
			{"004-SubagentStart.json", store.StateWorking, 1, agents(1)},
			{"005-PostToolUse.json", store.StateWorking, 1, agents(1)},
		}},
		{"2.1.332", []fixtureStep{
			{"004-PostToolUse.json", store.StateWorking, 1, agents(0)},
			{"005-SubagentStart.json", store.StateWorking, 1, agents(1)},
		}},
	} {
		t.Run(c.release, func(t *testing.T) {
			var turnStart store.Timestamp
			steps := []fixtureStep{
				{"001-SessionStart-startup.json", store.StateReady, 1, nil},
				{"002-UserPromptSubmit.json", store.StateWorking, 1, func(t *testing.T, r *store.Record) { turnStart = r.TurnStartedAt }},
				{"003-PreToolUse.json", store.StateWorking, 1, nil},
			}
			steps = append(steps, c.launch...)
			steps = append(steps, []fixtureStep{
				{"006-Stop.json", store.StateWorking, 1, agents(1)},
				{"007-SubagentStop.json", store.StateWorking, 1, agents(0)},
				{"008-UserPromptSubmit.json", store.StateWorking, 1, func(t *testing.T, r *store.Record) {
					if r.WorkingOn != "BGAGENT:6" || !r.TurnStartedAt.Equal(turnStart.Time) {
						t.Errorf("working_on %q, turn_started_at %v: the injected turn replaced the person's (%v)", r.WorkingOn, r.TurnStartedAt, turnStart)
					}
				}},
				{"009-Stop.json", store.StateReady, 1, agents(0)},
				{"010-SessionEnd-other.json", "", 0, nil},
			}...)
			replayFixtures(t, recording(c.release, "agents"), steps, single)
		})
	}
}

// TestReplayQuestion: an AskUserQuestion waits with the question as
// waiting_for, and the answer (whose PostToolUse carries the answers in
// its tool_input) ends the wait.
func TestReplayQuestion(t *testing.T) {
	const q = "Choice: Which database should we use?"
	for _, release := range stepReleases {
		t.Run(release, func(t *testing.T) {
			replayFixtures(t, recording(release, "question"), []fixtureStep{
				{"001-SessionStart-startup.json", store.StateReady, 1, nil},
				{"002-UserPromptSubmit.json", store.StateWorking, 1, nil},
				{"003-PreToolUse.json", store.StateWorking, 1, nil},
				{"004-PermissionRequest.json", store.StateWaiting, 1, waitingFor(q)},
				{"005-Notification-permission_prompt.json", store.StateWaiting, 1, waitingFor(q)},
				{"006-PostToolUse.json", store.StateWorking, 1, waitingFor("")},
				{"007-Stop.json", store.StateReady, 1, nil},
				{"008-SessionEnd-other.json", "", 0, nil},
			}, single)
		})
	}
}

// TestReplayPlan: ExitPlanMode (loaded with ToolSearch first: 2.1.330
// and newer defer it) waits for "plan approval".
func TestReplayPlan(t *testing.T) {
	for _, release := range stepReleases {
		t.Run(release, func(t *testing.T) {
			replayFixtures(t, recording(release, "plan"), []fixtureStep{
				{"001-SessionStart-startup.json", store.StateReady, 1, nil},
				{"002-UserPromptSubmit.json", store.StateWorking, 1, nil},
				{"003-PreToolUse.json", store.StateWorking, 1, nil},
				{"004-PostToolUse.json", store.StateWorking, 1, nil},
				{"005-PreToolUse.json", store.StateWorking, 1, nil},
				{"006-PermissionRequest.json", store.StateWaiting, 1, waitingFor("plan approval")},
				{"007-PostToolUse.json", store.StateWorking, 1, waitingFor("")},
				{"008-Stop.json", store.StateReady, 1, nil},
				{"009-SessionEnd-other.json", "", 0, nil},
			}, single)
		})
	}
}

// single is what the hook observes in a recording of one Claude process.
func single(int) observation { return claudeObs(1000, 500) }

func TestAgentsAndDialogs(t *testing.T) {
	agent := func(name, agentID string) *Event { return with(e(name), func(ev *Event) { ev.AgentID = agentID }) }
	stop := func(tasks ...BackgroundTask) *Event {
		return with(e(EventStop), func(ev *Event) { ev.BackgroundTasks = &tasks })
	}
	running := func(id string) BackgroundTask { return BackgroundTask{ID: id, Type: "subagent", Status: "running"} }
	prompt := func(text, source string) *Event {
		return with(e(EventUserPromptSubmit), func(ev *Event) { ev.Prompt, ev.Source = text, source })
	}
	runTransitions(t, []transitionCase{
		{"a Stop that leaves agents running keeps working and counts them", []*Event{
			prompt("fix it", ""), agent(EventSubagentStart, "a1"), agent(EventSubagentStart, "a2"),
			stop(running("a1"), running("a2"), BackgroundTask{ID: "b1", Type: "shell", Status: "running"}),
		}, store.StateWorking, agents(2)},
		{"a background agent's dialog stays up through the main turn's Stop", []*Event{
			prompt("fix it", ""), agent(EventSubagentStart, "a1"),
			with(tool(e(EventPermissionRequest), "Bash", `{"command":"make"}`), func(ev *Event) { ev.AgentID = "a1" }),
			stop(running("a1")),
		}, store.StateWaiting, waitingFor("Bash: make")},
		{"one agent back, one still running: still working", []*Event{
			prompt("fix it", ""), stop(running("a1"), running("a2")), agent(EventSubagentStop, "a1"),
		}, store.StateWorking, agents(1)},
		{"the last agent back: working until the injected turn's Stop", []*Event{
			prompt("fix it", ""), stop(running("a1")), agent(EventSubagentStop, "a1"),
			prompt("<task-notification>\n<task-id>a1</task-id>", ""),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			if r.WorkingOn != "fix it" || len(r.Subagents) != 0 {
				t.Errorf("working_on %q, agents %v", r.WorkingOn, r.Subagents)
			}
		}},
		{"the injected turn's Stop with nothing running ends the turn", []*Event{
			prompt("fix it", ""), stop(running("a1")), agent(EventSubagentStop, "a1"),
			prompt("<task-notification>…", "system"), stop(),
		}, store.StateReady, agents(0)},
		{"a background shell does not hold the turn", []*Event{
			prompt("serve", ""), stop(BackgroundTask{ID: "b1", Type: "shell", Status: "running"}),
		}, store.StateReady, nil},
		{"a finished agent listed by the Stop does not hold the turn", []*Event{
			prompt("fix it", ""), stop(BackgroundTask{ID: "a1", Type: "subagent", Status: "completed"}),
		}, store.StateReady, nil},
		{"a Stop without background_tasks (older clients) ends the turn and forgets agents", []*Event{
			prompt("fix it", ""), agent(EventSubagentStart, "a1"), e(EventStop),
		}, store.StateReady, agents(0)},
		{"a foreground subagent is counted while it runs", []*Event{
			prompt("fix it", ""), tool(e(EventPreToolUse), "Agent", `{}`), agent(EventSubagentStart, "a1"),
		}, store.StateWorking, agents(1)},
		{"a foreground subagent's turn ends as before", []*Event{
			prompt("fix it", ""), agent(EventSubagentStart, "a1"), agent(EventSubagentStop, "a1"),
			tool(e(EventPostToolUse), "Agent", `{}`), stop(),
		}, store.StateReady, agents(0)},
		{"compaction's SubagentStop counts nothing and keeps compacting", []*Event{
			with(e(EventPreCompact), func(ev *Event) { ev.Trigger = "manual" }), agent(EventSubagentStop, "compact-1"),
		}, store.StateCompacting, agents(0)},
		{"idle_prompt while agents run changes nothing", []*Event{
			prompt("fix it", ""), stop(running("a1")),
			with(e(EventNotification), func(ev *Event) { ev.NotificationType = "idle_prompt" }),
		}, store.StateWorking, agents(1)},
		{"a new process forgets the agents", []*Event{
			prompt("fix it", ""), stop(running("a1")), with(e(EventSessionStart), func(ev *Event) { ev.Source = "resume" }),
		}, store.StateReady, agents(0)},
		{"a person's prompt while agents run becomes the task", []*Event{
			prompt("fix it", ""), stop(running("a1")), prompt("and the docs", "user"),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			if r.WorkingOn != "and the docs" || len(r.Subagents) != 1 {
				t.Errorf("working_on %q, agents %v", r.WorkingOn, r.Subagents)
			}
		}},
		{"a scheduled wake-up starts a turn of its own but keeps the task", []*Event{
			prompt("watch the build", ""), stop(), prompt("check the build again", "schedule_wakeup"),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			if r.WorkingOn != "watch the build" || !r.TurnStartedAt.Equal(r.UpdatedAt.Time) {
				t.Errorf("working_on %q, turn_started_at %v (now %v)", r.WorkingOn, r.TurnStartedAt, r.UpdatedAt)
			}
		}},
		{"a teammate's message is not the person's prompt", []*Event{
			prompt("lead the team", ""), prompt("<teammate-message teammate_id=\"x\">done</teammate-message>", ""),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			if r.WorkingOn != "lead the team" {
				t.Errorf("working_on %q", r.WorkingOn)
			}
		}},
		{"a question waits with its header, text and how many more", []*Event{
			prompt("ask", ""),
			tool(e(EventPermissionRequest), "AskUserQuestion", `{"questions":[{"header":"DB","question":"Which database?\nmore"},{"header":"X","question":"Y?"}]}`),
		}, store.StateWaiting, waitingFor("DB: Which database? (+1 more)")},
		{"the answered question ends the wait though its input grew the answers", []*Event{
			prompt("ask", ""),
			tool(e(EventPermissionRequest), "AskUserQuestion", `{"questions":[{"header":"DB","question":"Which?"}]}`),
			tool(e(EventPostToolUse), "AskUserQuestion", `{"questions": [{"header":"DB","question":"Which?"}],"answers":{"Which?":"pg"}}`),
		}, store.StateWorking, waitingFor("")},
		{"a plan waits for approval", []*Event{
			prompt("plan", ""), tool(e(EventPermissionRequest), "ExitPlanMode", `{}`),
		}, store.StateWaiting, waitingFor("plan approval")},
		{"an MCP elicitation waits with the server's message; the answer ends it", []*Event{
			prompt("deploy", ""),
			with(e(EventElicitation), func(ev *Event) { ev.MCPServerName, ev.Message = "deployer", "Which environment?" }),
			with(e(EventNotification), func(ev *Event) { ev.NotificationType = "elicitation_dialog"; ev.Message = "Claude has a question" }),
		}, store.StateWaiting, func(t *testing.T, r *store.Record) {
			waitingFor("deployer: Which environment?")(t, r)
			if next := Transition(r, e(EventElicitationResult), t0); next.State != store.StateWorking || next.WaitingFor != "" {
				t.Errorf("after ElicitationResult: %s, %q", next.State, next.WaitingFor)
			}
			done := with(e(EventNotification), func(ev *Event) { ev.NotificationType = "elicitation_complete" })
			if next := Transition(r, done, t0); next.State != store.StateWorking {
				t.Errorf("after elicitation_complete: %s", next.State)
			}
		}},
		{"an elicitation's result does not end a permission dialog", []*Event{
			prompt("x", ""), tool(e(EventPermissionRequest), "Bash", `{"command":"ls"}`), e(EventElicitationResult),
		}, store.StateWaiting, waitingFor("Bash: ls")},
		{"agent_needs_input waits with Claude's message", []*Event{
			prompt("x", ""),
			with(e(EventNotification), func(ev *Event) {
				ev.NotificationType = "agent_needs_input"
				ev.Message = "Auto mode can't check actions in this session and needs your choice"
			}),
		}, store.StateWaiting, waitingFor("Auto mode can't check actions in this session and needs your choice")},
		{"agent_completed is a heartbeat", []*Event{
			prompt("x", ""), with(e(EventNotification), func(ev *Event) { ev.NotificationType = "agent_completed" }),
		}, store.StateWorking, nil},
		{"auto mode refusing a call ends it", []*Event{
			prompt("x", ""), tool(e(EventPreToolUse), "Bash", `{"command":"rm -rf /"}`),
			tool(e(EventPermissionDenied), "Bash", `{"command":"rm -rf /"}`),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			if r.ToolsInFlight != 0 {
				t.Errorf("tools_in_flight %d", r.ToolsInFlight)
			}
		}},
	})
}

// TestEveryEventHandledOnPurpose: every event of the registry that
// carries state changes a record in some state, and every heartbeat
// leaves every state as it was. An event added to the registry without
// its rule (or a rule without its entry) fails here.
func TestEveryEventHandledOnPurpose(t *testing.T) {
	states := []store.State{store.StateReady, store.StateWorking, store.StateWaiting, store.StateCompacting}
	for _, spec := range hookevents.All {
		changes := false
		for _, st := range states {
			prev := &store.Record{SessionID: "s1", State: st, CWD: "/p", WaitingFor: "x", WaitingTool: elicitationKey, ToolsInFlight: 1, Subagents: []string{"a1"}}
			ev := &Event{SessionID: "s1", HookEventName: spec.Name, CWD: "/p", NewCWD: "/q", Source: "startup", Trigger: "manual", NotificationType: "permission_prompt", ToolName: "Bash", ToolInput: []byte(`{}`)}
			switch spec.Name {
			case EventSubagentStart:
				ev.AgentID = "a2"
			case EventSubagentStop:
				ev.AgentID = "a1"
			}
			next := Transition(prev, ev, t0)
			if next == nil {
				changes = true
				continue
			}
			moved := next.State != st || next.CWD != prev.CWD || next.WaitingFor != prev.WaitingFor || next.ToolsInFlight != prev.ToolsInFlight || !slices.Equal(next.Subagents, prev.Subagents)
			changes = changes || moved
			if spec.Role != hookevents.State && moved {
				t.Errorf("%s is a heartbeat in the registry but changed a %s record", spec.Name, st)
			}
		}
		if spec.Role == hookevents.State && !changes {
			t.Errorf("%s carries state in the registry but the state machine has no rule for it", spec.Name)
		}
		if knownEvent(spec.Name) != (spec.Role == hookevents.State) {
			t.Errorf("knownEvent(%s) = %v", spec.Name, knownEvent(spec.Name))
		}
	}
	for _, n := range hookevents.Notifications {
		ev := &Event{SessionID: "s1", HookEventName: EventNotification, NotificationType: n.Type, Message: "m"}
		changes := false
		for _, st := range states {
			prev := &store.Record{SessionID: "s1", State: st, WaitingTool: elicitationKey}
			next := Transition(prev, ev, t0)
			changes = changes || next.State != st
		}
		if changes != (n.Role == hookevents.State) {
			t.Errorf("notification %s: changes a state = %v, registry role %v", n.Type, changes, n.Role)
		}
	}
}

func TestMainTurnEnded(t *testing.T) {
	ready := &store.Record{State: store.StateReady}
	working := &store.Record{State: store.StateWorking, Subagents: []string{"a1"}}
	cases := []struct {
		event string
		after *store.Record
		want  bool
	}{
		{EventStop, ready, true},
		{EventStop, working, false}, // background agents still run
		{EventStop, nil, false},
		{EventSubagentStop, ready, false},
		{EventUserPromptSubmit, ready, false},
		{EventNotification, ready, false}, // idle_prompt: the turn ended long ago
	}
	for _, c := range cases {
		ctx := &Context{Event: &Event{HookEventName: c.event}, After: c.after}
		if got := ctx.MainTurnEnded(); got != c.want {
			t.Errorf("%s → %v: MainTurnEnded %v, want %v", c.event, c.after, got, c.want)
		}
	}
}
