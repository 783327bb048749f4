package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/capacitor-hud/hud/hud/hookevents"
	"github.com/capacitor-hud/hud/internal/jsonfields"
	"github.com/capacitor-hud/hud/internal/store"
)

// The hook events the state machine has rules for, named once in the
// registry (hookevents.All); any other name is a heartbeat.
const (
	EventSessionStart       = hookevents.SessionStart
	EventSessionEnd         = hookevents.SessionEnd
	EventUserPromptSubmit   = hookevents.UserPromptSubmit
	EventPreToolUse         = hookevents.PreToolUse
	EventPostToolUse        = hookevents.PostToolUse
	EventPostToolUseFailure = hookevents.PostToolUseFailure
	EventPermissionRequest  = hookevents.PermissionRequest
	EventPermissionDenied   = hookevents.PermissionDenied
	EventNotification       = hookevents.Notification
	EventStop               = hookevents.Stop
	EventStopFailure        = hookevents.StopFailure
	EventSubagentStart      = hookevents.SubagentStart
	EventSubagentStop       = hookevents.SubagentStop
	EventPreCompact         = hookevents.PreCompact
	EventPostCompact        = hookevents.PostCompact
	EventCwdChanged         = hookevents.CwdChanged
	EventElicitation        = hookevents.Elicitation
	EventElicitationResult  = hookevents.ElicitationResult
)

// Values of SessionStart's source and Pre/PostCompact's trigger that
// change the state.
const (
	sourceCompact  = "compact"
	sourceClear    = "clear"
	sourceResume   = "resume"
	triggerManual  = "manual"
	triggerAuto    = "auto"
	elicitationKey = "elicitation" // WaitingTool while an MCP server's question is up

	notifyPermissionPrompt    = hookevents.PermissionPrompt
	notifyElicitationDialog   = hookevents.ElicitationDialog
	notifyElicitationComplete = hookevents.ElicitationComplete
	notifyElicitationResponse = hookevents.ElicitationResponse
	notifyAgentNeedsInput     = hookevents.AgentNeedsInput
	notifyIdlePrompt          = hookevents.IdlePrompt
)

// Transition is the state machine: it applies one event to a session's
// record and returns the new record, or nil when the event ends the
// session. prev is nil for a session not in the store yet and is never
// modified. The event's paths (cwd, new_cwd) must already be normalized;
// Transition touches nothing outside its arguments.
//
// It sets updated_at and last_event on every event, and state_changed_at
// when the state changes or the person sends a prompt. Fields that depend on the hook's
// surroundings (pid, project_dir, terminal) are the caller's.
func Transition(prev *store.Record, ev *Event, now time.Time) *store.Record {
	if ev.HookEventName == EventSessionEnd {
		return nil
	}
	at := store.At(now)
	r := carried(prev, ev, at)
	next := nextState(&r, ev, at)
	// Only the end of compaction (PostCompact, SessionStart(compact)), a
	// new prompt, a new start or the end of the session leaves compacting:
	// compaction fires events of its own (a SubagentStop, fixture 18) that
	// must not.
	if r.State == store.StateCompacting && next != store.StateCompacting && !leavesCompacting(ev) {
		next = store.StateCompacting
	}
	// A person's new prompt starts a new working spell even when the
	// record never saw the last one end (an Esc, a denial, a model error
	// that fired no hook, which the agent's own files corrected on
	// screen): its "working since" is the prompt's.
	if next != r.State || prev == nil || personsPrompt(ev) {
		r.StateChangedAt = at
	}
	r.State = next
	return &r
}

// carried is the record ev starts from: a copy of prev (a new record in
// the state ev implies when prev is nil) with what every event says about
// its session (agent, cwd, permission mode, transcript, when and which
// event came last).
func carried(prev *store.Record, ev *Event, at store.Timestamp) store.Record {
	var r store.Record
	if prev != nil {
		r = *prev
	} else {
		r = store.Record{SessionID: ev.SessionID, State: firstState(ev)}
	}
	if ev.Agent != "" {
		r.Agent = ev.Agent
	}
	r.UpdatedAt = at
	r.LastEvent = &store.LastEvent{Event: ev.HookEventName, Timestamp: at}
	if ev.CWD != "" {
		r.CWD = ev.CWD
	}
	if ev.PermissionMode != "" {
		r.PermissionMode = ev.PermissionMode
	}
	if ev.TranscriptPath != "" {
		r.TranscriptPath = ev.TranscriptPath
	}
	return r
}

// nextState applies ev's rule to r and returns the state r moves to; an
// event with no rule is a heartbeat and keeps r's state.
func nextState(r *store.Record, ev *Event, at store.Timestamp) store.State {
	switch ev.HookEventName {
	case EventSessionStart:
		return sessionStarted(r, ev)
	case EventUserPromptSubmit:
		return promptSubmitted(r, ev, at)
	case EventPreToolUse, EventPostToolUse, EventPostToolUseFailure, EventPermissionDenied:
		return toolCalled(r, ev)
	case EventPermissionRequest:
		r.LastTool = ev.ToolName
		r.WaitingFor = describeDialog(ev.ToolName, ev.ToolInput, r.CWD)
		r.WaitingTool = toolFingerprint(ev.ToolName, ev.ToolInput)
		return store.StateWaiting
	case EventNotification:
		return notification(r, ev)
	case EventElicitation:
		r.WaitingFor = elicitationText(ev.MCPServerName, ev.Message)
		r.WaitingTool = elicitationKey
		return store.StateWaiting
	case EventElicitationResult:
		return answered(r)
	case EventSubagentStart:
		r.Subagents = addSubagent(r.Subagents, ev.AgentID)
	case EventSubagentStop:
		// The agent is done, but a background agent's result still comes
		// back as a turn of its own (UserPromptSubmit with a
		// <task-notification>): the state waits for that turn's Stop.
		r.Subagents = removeSubagent(r.Subagents, ev.AgentID)
	case EventStop:
		return stopped(r, ev)
	case EventStopFailure:
		r.ToolsInFlight, r.WaitingFor, r.WaitingTool = 0, "", ""
		r.LastError = errorText(ev.Error)
		return store.StateReady
	case EventPreCompact:
		r.CompactTrigger = ev.Trigger
		return store.StateCompacting
	case EventPostCompact:
		return afterCompaction(r, ev.Trigger)
	case EventCwdChanged:
		if ev.NewCWD != "" {
			r.CWD = ev.NewCWD
		}
	}
	return r.State
}

// sessionStarted is SessionStart's rule: the end of compaction for
// SessionStart(compact), else a new process or a new conversation, ready
// and with nothing of the last one left.
func sessionStarted(r *store.Record, ev *Event) store.State {
	if ev.Source == sourceCompact {
		return afterCompaction(r, ev.Trigger)
	}
	r.ToolsInFlight, r.WaitingFor, r.WaitingTool, r.CompactTrigger = 0, "", "", ""
	r.Subagents = nil
	return store.StateReady
}

// promptSubmitted is UserPromptSubmit's rule: a new turn.
func promptSubmitted(r *store.Record, ev *Event, at store.Timestamp) store.State {
	// A turn Claude injected itself (a background agent's result, a
	// teammate's message, a scheduled wake-up) keeps the person's
	// prompt as what the session works on, and continues the turn it
	// belongs to while that one still runs.
	if personsPrompt(ev) {
		r.WorkingOn = oneLine(ev.Prompt, maxWorkingOn)
		r.TurnStartedAt = at
	} else if r.State != store.StateWorking || r.TurnStartedAt.IsZero() {
		r.TurnStartedAt = at
	}
	// Whatever the last turn left (a tool interrupted with Esc fires
	// nothing, nor does a dialog dismissed) is over.
	r.ToolsInFlight, r.WaitingFor, r.WaitingTool, r.LastError, r.CompactTrigger = 0, "", "", "", ""
	return store.StateWorking
}

// personsPrompt reports whether ev is a prompt the person sent, not one
// Claude injected.
func personsPrompt(ev *Event) bool {
	return ev.HookEventName == EventUserPromptSubmit && !injectedPrompt(ev)
}

// toolCalled is the rule of a tool call starting (PreToolUse) or ending
// (PostToolUse, PostToolUseFailure, PermissionDenied): working, unless a
// dialog for another call is still up.
func toolCalled(r *store.Record, ev *Event) store.State {
	if ev.HookEventName == EventPreToolUse {
		r.ToolsInFlight++
	} else {
		r.ToolsInFlight = max(r.ToolsInFlight-1, 0)
	}
	if waitsForOtherTool(r, ev) {
		return r.State // a parallel tool or a subagent's: the dialog is still up
	}
	r.LastTool, r.WaitingFor, r.WaitingTool = ev.ToolName, "", ""
	return store.StateWorking
}

// stopped is Stop's rule: the main turn ends, unless agents it started
// still run.
func stopped(r *store.Record, ev *Event) store.State {
	// A Stop fired by a subagent (compaction runs as one), by a Stop
	// hook that continued the turn, or during compaction does not end
	// the main turn.
	if ev.StopHookActive || ev.AgentID != "" || r.State == store.StateCompacting {
		return r.State
	}
	r.ToolsInFlight = 0
	// A client that lists its background work says which agents still
	// run; one that does not (before 2.1.145) has none, since its
	// subagents run inside the turn.
	r.Subagents = runningSubagents(ev.BackgroundTasks)
	switch {
	case len(r.Subagents) == 0:
		r.WaitingFor, r.WaitingTool = "", ""
		return store.StateReady
	case r.State == store.StateWaiting:
		// The main turn cannot stop with a dialog of its own open: the
		// one up is a background agent's, and still waits.
		return r.State
	}
	// Claude waits for its agents and continues by itself when they
	// return: the turn is not over.
	r.WaitingFor, r.WaitingTool = "", ""
	return store.StateWorking
}

// waitsForOtherTool reports whether r waits on a permission dialog for a
// tool call other than ev's. PermissionRequest carries no tool_use_id, so a
// call is known by its tool name and input (fixtures 08 and 10 carry the
// same). Claude runs tools in parallel and subagents beside the main turn:
// their events while the dialog is up must not make the session look busy
// while it waits for the person.
func waitsForOtherTool(r *store.Record, ev *Event) bool {
	return r.State == store.StateWaiting && r.WaitingTool != "" &&
		r.WaitingTool != toolFingerprint(ev.ToolName, ev.ToolInput)
}

// toolFingerprint identifies a tool call by its name and its input, with
// insignificant white space removed, as 16 hex digits.
func toolFingerprint(name string, input json.RawMessage) string {
	input = fingerprintInput(name, input)
	b := append(make([]byte, 0, len(name)+1+len(input)), name...)
	b = append(b, 0)
	if compact, err := jsonfields.Compact(b, input); err == nil {
		b = compact
	} else {
		b = append(b, input...)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// knownEvent reports whether the state machine has a rule for name.
func knownEvent(name string) bool { return hookevents.Carries(name) }

// leavesCompacting reports whether ev may end the compacting state. Every
// SessionStart does: SessionStart(compact) is how compaction ends, and any
// other source starts a process or session that is not compacting (a
// `claude --resume` after the process died mid-compaction, which fired no
// PostCompact, would otherwise show compacting until the next prompt).
func leavesCompacting(ev *Event) bool {
	switch ev.HookEventName {
	case EventPostCompact, EventUserPromptSubmit, EventSessionEnd, EventSessionStart:
		return true
	}
	return false
}

// afterCompaction is the state once compaction is over: ready after a
// manual /compact (the person is at the prompt), working after an
// automatic one (it ran in the middle of a turn that goes on). Outside
// compaction the event is a heartbeat: Claude fires both PostCompact and
// SessionStart(compact), and the first one already moved on.
func afterCompaction(r *store.Record, trigger string) store.State {
	if r.State != store.StateCompacting {
		return r.State
	}
	if trigger == "" {
		trigger = r.CompactTrigger
	}
	r.CompactTrigger = ""
	if trigger == triggerAuto {
		return store.StateWorking
	}
	return store.StateReady
}

// firstState is the state of a session first seen at ev (the hook was
// installed mid-session, or the store was lost): the event's own state
// where it has one, else what the event implies about the turn.
func firstState(ev *Event) store.State {
	switch ev.HookEventName {
	case EventUserPromptSubmit, EventPreToolUse, EventPostToolUse, EventPostToolUseFailure,
		EventPermissionDenied, EventSubagentStart, EventSubagentStop, EventElicitationResult:
		return store.StateWorking
	case EventPermissionRequest, EventElicitation:
		return store.StateWaiting
	case EventPreCompact:
		return store.StateCompacting
	}
	return store.StateReady
}
