package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
)

// fixtureDir holds the payloads recorded from Claude Code 2.1.197.
const fixtureDir = "../../testdata/hook/fixtures"

var t0 = time.Date(2026, 1, 21, 10, 30, 0, 0, time.UTC)

func readFixture(t *testing.T, name string) *Event {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := DecodeEvent(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ev
}

// claudeObs is an observation of one Claude process.
func claudeObs(pid int, started int64) observation {
	return observation{
		Process:    proc.Process{PID: pid, Started: started},
		CWD:        "/home/dev/proj", // the hook's own directory, for events without a cwd
		ProjectDir: "/home/dev/proj",
		Alive:      func(int, int64) bool { return true },
	}
}

// TestFixtureReplay replays every recorded event in order and checks the
// store after each: the session's state (or that it is gone), how many
// records there are, and that state_changed_at moved only with the state.
func TestFixtureReplay(t *testing.T) {
	steps := []fixtureStep{
		{"01-SessionStart-startup.json", store.StateReady, 1, nil},
		{"02-UserPromptSubmit.json", store.StateWorking, 1, func(t *testing.T, r *store.Record) {
			if r.WorkingOn != "hello" || !r.TurnStartedAt.Equal(r.UpdatedAt.Time) {
				t.Errorf("working_on %q, turn_started_at %v", r.WorkingOn, r.TurnStartedAt)
			}
		}},
		{"03-Stop.json", store.StateReady, 1, nil},
		{"04-SessionEnd-other.json", "", 0, nil},
		{"05-SessionStart-startup.json", store.StateReady, 1, nil},
		{"06-UserPromptSubmit.json", store.StateWorking, 1, nil},
		{"07-PreToolUse.json", store.StateWorking, 1, func(t *testing.T, r *store.Record) {
			if r.ToolsInFlight != 1 || r.LastTool != "Bash" {
				t.Errorf("tools_in_flight %d, last_tool %q", r.ToolsInFlight, r.LastTool)
			}
		}},
		{"08-PermissionRequest.json", store.StateWaiting, 1, func(t *testing.T, r *store.Record) {
			if r.WaitingFor != "Bash: touch /home/dev/proj/made.txt" {
				t.Errorf("waiting_for %q", r.WaitingFor)
			}
		}},
		{"09-Notification-permission_prompt.json", store.StateWaiting, 1, func(t *testing.T, r *store.Record) {
			if r.WaitingFor != "Bash: touch /home/dev/proj/made.txt" {
				t.Errorf("waiting_for %q: the notification must not hide what is waited for", r.WaitingFor)
			}
		}},
		{"10-PostToolUse.json", store.StateWorking, 1, func(t *testing.T, r *store.Record) {
			if r.ToolsInFlight != 0 || r.WaitingFor != "" {
				t.Errorf("tools_in_flight %d, waiting_for %q", r.ToolsInFlight, r.WaitingFor)
			}
		}},
		{"11-Stop.json", store.StateReady, 1, nil},
		{"12-UserPromptSubmit.json", store.StateWorking, 1, nil},
		{"13-PreToolUse.json", store.StateWorking, 1, nil},
		{"14-PermissionRequest.json", store.StateWaiting, 1, nil},
		{"15-PostToolUseFailure.json", store.StateWorking, 1, func(t *testing.T, r *store.Record) {
			if r.ToolsInFlight != 0 {
				t.Errorf("tools_in_flight %d", r.ToolsInFlight)
			}
		}},
		{"16-Stop.json", store.StateReady, 1, nil},
		{"17-PreCompact-manual.json", store.StateCompacting, 1, func(t *testing.T, r *store.Record) {
			if r.CompactTrigger != "manual" {
				t.Errorf("compact_trigger %q", r.CompactTrigger)
			}
		}},
		{"18-SubagentStop.json", store.StateCompacting, 1, nil},
		{"19-SessionStart-compact.json", store.StateReady, 1, func(t *testing.T, r *store.Record) {
			if r.CompactTrigger != "" {
				t.Errorf("compact_trigger %q after compaction", r.CompactTrigger)
			}
		}},
		{"20-PostCompact-manual.json", store.StateReady, 1, nil},
		{"21-UserPromptSubmit.json", store.StateWorking, 1, nil},
		// Esc interrupted the turn (no Stop), then /clear.
		{"22-SessionEnd-clear.json", "", 0, nil},
		{"23-SessionStart-clear.json", store.StateReady, 1, nil},
		{"24-UserPromptSubmit.json", store.StateWorking, 1, nil},
		{"25-Stop.json", store.StateReady, 1, nil},
		{"26-Notification-idle_prompt.json", store.StateReady, 1, nil},
		{"27-SessionEnd-prompt_input_exit.json", "", 0, nil},
		// --continue right after /exit: a new process, the same id.
		{"28-SessionStart-resume.json", store.StateReady, 1, func(t *testing.T, r *store.Record) {
			if r.PID != 2000 {
				t.Errorf("pid %d, want the new process 2000", r.PID)
			}
		}},
		{"29-UserPromptSubmit.json", store.StateWorking, 1, nil},
		{"30-Stop.json", store.StateReady, 1, nil},
		{"31-SessionEnd-other.json", "", 0, nil},
	}
	replayFixtures(t, fixtureDir, steps, func(i int) observation {
		if i >= 27 { // 28–31 run in a new process
			return claudeObs(2000, 900)
		}
		return claudeObs(1000, 500)
	})
}

// fixtureStep is one recorded event and what the store must hold after it.
type fixtureStep struct {
	fixture string
	want    store.State // "" = no record for the event's session
	records int
	check   func(t *testing.T, r *store.Record)
}

// replayFixtures applies the events recorded in dir in order, through the whole
// store update, and checks the store after each: the session's state (or
// that it is gone), how many records there are, and that updated_at,
// state_changed_at and last_event moved as they should. It fails when the
// directory holds an event no step names. obsAt is what the hook observed
// at step i.
func replayFixtures(t *testing.T, dir string, steps []fixtureStep, obsAt func(i int) observation) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "[0-9]*.json"))
	// Beside each payload the rig may have kept Claude's own session file.
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, ".claude-session.json") })
	if err != nil || len(files) != len(steps) {
		t.Fatalf("%s: %d recorded events, %d steps (%v)", dir, len(files), len(steps), err)
	}
	tb := store.NewTable()
	now := t0
	for i, step := range steps {
		if filepath.Base(files[i]) != step.fixture {
			t.Fatalf("step %d is %s, the recording's is %s", i+1, step.fixture, filepath.Base(files[i]))
		}
		now = now.Add(time.Second)
		b, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		ev, err := DecodeEvent(b)
		if err != nil {
			t.Fatalf("%s: %v", step.fixture, err)
		}
		u := applyEvent(tb, ev, obsAt(i), now)
		if u.Dropped != "" {
			t.Fatalf("%s dropped: %s", step.fixture, u.Dropped)
		}
		got, err := tb.Get(ev.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case step.want == "" && got != nil:
			t.Errorf("%s: record left in state %s, want none", step.fixture, got.State)
		case step.want != "" && got == nil:
			t.Errorf("%s: no record, want %s", step.fixture, step.want)
		case got != nil:
			if got.State != step.want {
				t.Errorf("%s: state %s, want %s", step.fixture, got.State, step.want)
			}
			if !got.UpdatedAt.Equal(now) {
				t.Errorf("%s: updated_at %v, want %v", step.fixture, got.UpdatedAt, now)
			}
			changed := u.Before == nil || u.Before.State != got.State
			if changed != got.StateChangedAt.Equal(now) {
				t.Errorf("%s: state %v→%s but state_changed_at %v (now %v)", step.fixture, stateName(u.Before), got.State, got.StateChangedAt, now)
			}
			if got.LastEvent == nil || got.LastEvent.Event != ev.HookEventName {
				t.Errorf("%s: last_event %+v", step.fixture, got.LastEvent)
			}
			if step.check != nil {
				step.check(t, got)
			}
		}
		if n := tb.Len(); n != step.records {
			t.Errorf("%s: %d records, want %d", step.fixture, n, step.records)
		}
	}
}

// TestTransition covers the rules the recordings do not reach. Each case
// starts from a session in the state the first event leaves it in.
// TestWaitingRecordWithoutFingerprint: a record written before the hook
// fingerprinted dialogs goes back to working on the next tool event.
func TestWaitingRecordWithoutFingerprint(t *testing.T) {
	prev := &store.Record{SessionID: "s1", State: store.StateWaiting, WaitingFor: "Bash: ls"}
	next := Transition(prev, tool(&Event{SessionID: "s1", HookEventName: EventPostToolUse}, "Read", `{}`), t0)
	if next.State != store.StateWorking {
		t.Errorf("state %s, want working", next.State)
	}
}

// tool sets ev's tool name and input.
func tool(ev *Event, name, input string) *Event {
	ev.ToolName, ev.ToolInput = name, json.RawMessage(input)
	return ev
}

// transitionCase is a run of events from no record, and the state (and
// anything check looks at) they must leave.
type transitionCase struct {
	name   string
	events []*Event
	want   store.State
	check  func(t *testing.T, r *store.Record)
}

// e is an event of session s1 in /p; with changes it in place.
func e(name string) *Event { return &Event{SessionID: "s1", HookEventName: name, CWD: "/p"} }

func with(ev *Event, f func(*Event)) *Event { f(ev); return ev }

// runTransitions applies each case's events through Transition, checking
// that Transition never changes the record it is given.
func runTransitions(t *testing.T, cases []transitionCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r *store.Record
			now := t0
			for _, ev := range c.events {
				now = now.Add(time.Second)
				prev := r
				var agents []string
				if prev != nil {
					agents = slices.Clone(prev.Subagents)
				}
				r = Transition(r, ev, now)
				if r == nil {
					t.Fatalf("%s removed the record", ev.HookEventName)
				}
				if prev != nil && (prev.UpdatedAt.Equal(now) || !slices.Equal(prev.Subagents, agents)) {
					t.Fatal("Transition modified its input")
				}
			}
			if r.State != c.want {
				t.Errorf("state %s, want %s", r.State, c.want)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

func TestTransition(t *testing.T) {
	runTransitions(t, []transitionCase{
		{"auto compaction holds through the turn's events and ends working", []*Event{
			e(EventUserPromptSubmit), e(EventPreToolUse),
			with(e(EventPreCompact), func(ev *Event) { ev.Trigger = "auto" }),
			e(EventStop), e(EventPostToolUse), e(EventPermissionRequest), e(EventSubagentStart),
			with(e(EventNotification), func(ev *Event) { ev.NotificationType = "idle_prompt" }),
			with(e(EventPostCompact), func(ev *Event) { ev.Trigger = "auto" }),
		}, store.StateWorking, nil},
		{"SessionStart(compact) ends an auto compaction by the recorded trigger", []*Event{
			with(e(EventPreCompact), func(ev *Event) { ev.Trigger = "auto" }),
			with(e(EventSessionStart), func(ev *Event) { ev.Source = "compact" }),
		}, store.StateWorking, nil},
		{"a prompt ends compaction", []*Event{
			with(e(EventPreCompact), func(ev *Event) { ev.Trigger = "manual" }), e(EventUserPromptSubmit),
		}, store.StateWorking, nil},
		{"a session resumed after its process died mid-compaction is ready", []*Event{
			with(e(EventPreCompact), func(ev *Event) { ev.Trigger = "auto" }),
			with(e(EventSessionStart), func(ev *Event) { ev.Source = "resume" }),
		}, store.StateReady, func(t *testing.T, r *store.Record) {
			if r.CompactTrigger != "" {
				t.Errorf("compact_trigger %q after a new start", r.CompactTrigger)
			}
		}},
		{"a parallel tool finishing while the dialog is up keeps waiting; the approved one ends it", []*Event{
			e(EventUserPromptSubmit),
			tool(e(EventPreToolUse), "Bash", `{"command":"npm test"}`),
			tool(e(EventPreToolUse), "Read", `{"file_path":"/p/a.go"}`),
			tool(e(EventPermissionRequest), "Bash", `{"command": "npm test"}`),
			tool(e(EventPostToolUse), "Read", `{"file_path":"/p/a.go"}`),
		}, store.StateWaiting, func(t *testing.T, r *store.Record) {
			if r.WaitingFor != "Bash: npm test" || r.ToolsInFlight != 1 {
				t.Errorf("waiting_for %q, tools in flight %d", r.WaitingFor, r.ToolsInFlight)
			}
			approved := Transition(r, tool(e(EventPostToolUse), "Bash", "{\n  \"command\": \"npm test\"\n}"), t0)
			if approved.State != store.StateWorking || approved.WaitingTool != "" || approved.ToolsInFlight != 0 {
				t.Errorf("after the approved tool: %s, waiting_tool %q, in flight %d", approved.State, approved.WaitingTool, approved.ToolsInFlight)
			}
		}},
		{"a subagent's tool starting while the dialog is up keeps waiting", []*Event{
			e(EventUserPromptSubmit),
			tool(e(EventPermissionRequest), "Bash", `{"command":"rm -rf build"}`),
			with(tool(e(EventPreToolUse), "Grep", `{"pattern":"x"}`), func(ev *Event) { ev.AgentID = "a1" }),
		}, store.StateWaiting, nil},
		{"Stop with stop_hook_active keeps working", []*Event{
			e(EventUserPromptSubmit), with(e(EventStop), func(ev *Event) { ev.StopHookActive = true }),
		}, store.StateWorking, nil},
		{"a subagent's Stop keeps working", []*Event{
			e(EventUserPromptSubmit), with(e(EventStop), func(ev *Event) { ev.AgentID = "a1" }),
		}, store.StateWorking, nil},
		{"StopFailure is ready with the error kept", []*Event{
			e(EventUserPromptSubmit), e(EventPreToolUse),
			with(e(EventStopFailure), func(ev *Event) {
				ev.Error = []byte(`{"type":"rate_limit_error","message":"Too many\nrequests"}`)
			}),
		}, store.StateReady, func(t *testing.T, r *store.Record) {
			if r.LastError != "rate_limit_error: Too many" || r.ToolsInFlight != 0 {
				t.Errorf("last_error %q, tools_in_flight %d", r.LastError, r.ToolsInFlight)
			}
		}},
		{"a new prompt clears the last error", []*Event{
			with(e(EventStopFailure), func(ev *Event) { ev.Error = []byte(`"overloaded"`) }), e(EventUserPromptSubmit),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			if r.LastError != "" {
				t.Errorf("last_error %q", r.LastError)
			}
		}},
		{"idle_prompt with a tool in flight changes nothing", []*Event{
			e(EventUserPromptSubmit), e(EventPreToolUse),
			with(e(EventNotification), func(ev *Event) { ev.NotificationType = "idle_prompt" }),
		}, store.StateWorking, nil},
		{"idle_prompt with no tool in flight is ready", []*Event{
			e(EventUserPromptSubmit),
			with(e(EventNotification), func(ev *Event) { ev.NotificationType = "idle_prompt" }),
		}, store.StateReady, nil},
		{"elicitation_dialog waits, saying for what", []*Event{
			e(EventUserPromptSubmit),
			with(e(EventNotification), func(ev *Event) {
				ev.NotificationType = "elicitation_dialog"
				ev.Message = "Claude has a question\nwith details"
			}),
		}, store.StateWaiting, func(t *testing.T, r *store.Record) {
			if r.WaitingFor != "Claude has a question" {
				t.Errorf("waiting_for %q", r.WaitingFor)
			}
		}},
		{"other notifications are heartbeats", []*Event{
			e(EventUserPromptSubmit), with(e(EventNotification), func(ev *Event) { ev.NotificationType = "auth_success" }),
		}, store.StateWorking, nil},
		{"subagents alone do not change the state", []*Event{
			e(EventSessionStart), e(EventSubagentStart), e(EventSubagentStop),
		}, store.StateReady, nil},
		{"CwdChanged moves cwd", []*Event{
			e(EventSessionStart), with(e(EventCwdChanged), func(ev *Event) { ev.OldCWD, ev.NewCWD = "/p", "/p/sub" }),
		}, store.StateReady, func(t *testing.T, r *store.Record) {
			if r.CWD != "/p/sub" {
				t.Errorf("cwd %q", r.CWD)
			}
		}},
		{"an unknown event is a heartbeat", []*Event{
			e(EventUserPromptSubmit), e("TeammateIdle"),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			if r.LastEvent.Event != "TeammateIdle" || r.StateChangedAt.Equal(r.UpdatedAt.Time) {
				t.Errorf("last_event %v, state_changed_at %v, updated_at %v", r.LastEvent.Event, r.StateChangedAt, r.UpdatedAt)
			}
		}},
		{"tools in flight never go negative", []*Event{
			e(EventUserPromptSubmit), e(EventPostToolUse), e(EventPostToolUseFailure), e(EventPreToolUse),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			if r.ToolsInFlight != 1 {
				t.Errorf("tools_in_flight %d", r.ToolsInFlight)
			}
		}},
		{"a prompt's first line, cleaned and cut, is the task", []*Event{
			with(e(EventUserPromptSubmit), func(ev *Event) {
				ev.Prompt = "\n  \x1b[31mFix\tthe " + strings.Repeat("é", 200) + "\nsecond line"
			}),
		}, store.StateWorking, func(t *testing.T, r *store.Record) {
			want := "Fix the " + strings.Repeat("é", 120-len("Fix the ")-1) + "…"
			if r.WorkingOn != want {
				t.Errorf("working_on %q\nwant       %q", r.WorkingOn, want)
			}
		}},
		{"a session first seen mid-turn is working", []*Event{e(EventPostToolUse)}, store.StateWorking, nil},
		{"a session first seen at a dialog is waiting", []*Event{e(EventPermissionRequest)}, store.StateWaiting, nil},
	})
}
