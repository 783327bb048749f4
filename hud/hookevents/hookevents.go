// Package hookevents is the one list of Claude Code's hook events and
// notification types, and what hud does with each: the state machine's
// known events (hud/hook), the events `hud install` wires (hud/install)
// and the e2e suite's own wiring are all derived from it. Adding an event
// is one entry here plus its transition in hud/hook and a test.
//
// Every name a client may send is listed, including those hud does not
// wire, so that each is handled by decision: a Heartbeat only tells that
// the session lives, and is not wired because a hook run costs Claude
// time for nothing the HUD shows.
package hookevents

import (
	"strconv"
	"strings"
)

// Role is what an event means to the HUD.
type Role int

const (
	// State events move a session's state or what the HUD shows of it;
	// `hud install` wires them.
	State Role = iota + 1
	// Heartbeat events say only that the session is alive. The hook
	// treats them so when a person wires them by hand; install does not.
	Heartbeat
	// Never events must not be wired: a command hook on them changes what
	// Claude does (a WorktreeCreate hook replaces git's worktree creation
	// and must print the new path).
	Never
)

// Spec is one hook event.
type Spec struct {
	Name string
	// Tool events take a tool-name matcher; install matches every tool.
	Tool bool
	Role Role
	// Since is the oldest client that accepts the name in settings.json.
	// An older one shows a "Settings Warning" dialog at every start for a
	// name it does not know (Claude Code 2.1.197, seen), so install wires
	// only what the installed client accepts.
	Since Version
	// Meaning says what the event tells the HUD.
	Meaning string
}

// The names of the events the state machine has rules for.
const (
	SessionStart       = "SessionStart"
	SessionEnd         = "SessionEnd"
	UserPromptSubmit   = "UserPromptSubmit"
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	PermissionRequest  = "PermissionRequest"
	PermissionDenied   = "PermissionDenied"
	Notification       = "Notification"
	Stop               = "Stop"
	StopFailure        = "StopFailure"
	SubagentStart      = "SubagentStart"
	SubagentStop       = "SubagentStop"
	PreCompact         = "PreCompact"
	PostCompact        = "PostCompact"
	CwdChanged         = "CwdChanged"
	Elicitation        = "Elicitation"
	ElicitationResult  = "ElicitationResult"
)

// Oldest is the oldest Claude Code release hud supports; every event it
// accepts has it as Since.
var Oldest = Version{2, 1, 197}

// All is every hook event of the newest client hud was proven against
// (Claude Code 2.1.332), the ones that carry state first, in the order
// install writes them.
var All = []Spec{
	{SessionStart, false, State, Oldest, "a process started, resumed, cleared or finished compacting: ready (or the state after compaction)"},
	{SessionEnd, false, State, Oldest, "the session ended: its record goes"},
	{UserPromptSubmit, false, State, Oldest, "a turn began: working; the person's prompt becomes working_on (not one Claude injected itself)"},
	{PreToolUse, true, State, Oldest, "a tool starts: working, unless a dialog for another call is up"},
	{PostToolUse, true, State, Oldest, "a tool ended: working (a dialog about it was answered)"},
	{PostToolUseFailure, true, State, Oldest, "a tool failed or was interrupted: as PostToolUse"},
	{PermissionRequest, true, State, Oldest, "a dialog waits for the person: waiting, with what for"},
	{PermissionDenied, true, State, Oldest, "auto mode refused a call: the call is over, as PostToolUse"},
	{Notification, false, State, Oldest, "Claude tells the person something; its notification_type decides (see Notifications)"},
	{Stop, false, State, Oldest, "the main turn ended: ready, unless background agents still run (working until they return)"},
	{StopFailure, false, State, Oldest, "the turn ended on an API error: ready, with the error"},
	{SubagentStart, false, State, Oldest, "a subagent started: counted among the running agents"},
	{SubagentStop, false, State, Oldest, "a subagent (or compaction's own) ended: no longer counted; the state waits for the main turn"},
	{PreCompact, false, State, Oldest, "compaction began: compacting"},
	{PostCompact, false, State, Oldest, "compaction ended: ready after /compact, working after an automatic one"},
	{CwdChanged, false, State, Oldest, "the session's working directory moved"},
	{Elicitation, false, State, Oldest, "an MCP server asks the person: waiting, with its message"},
	{ElicitationResult, false, State, Oldest, "the person answered an MCP server: working"},

	{"PostToolBatch", false, Heartbeat, Oldest, "a batch of tool calls ended; PostToolUse already said so per call"},
	{"UserPromptExpansion", false, Heartbeat, Oldest, "a slash command or MCP prompt was expanded; UserPromptSubmit follows"},
	{"TeammateIdle", false, Heartbeat, Oldest, "an agent-team teammate went idle; the lead session's own events carry its state"},
	{"TaskCreated", false, Heartbeat, Oldest, "a task was added to the list; the activity log reads the Task tools' own events"},
	{"TaskCompleted", false, Heartbeat, Oldest, "a task was completed; as TaskCreated"},
	{"Setup", false, Heartbeat, Oldest, "claude --init or --maintenance ran"},
	{"ConfigChange", false, Heartbeat, Oldest, "a settings file changed"},
	{"InstructionsLoaded", false, Heartbeat, Oldest, "a CLAUDE.md or rule file was loaded"},
	{"FileChanged", false, Heartbeat, Oldest, "a watched file changed"},
	{"MessageDisplay", false, Heartbeat, Oldest, "a piece of an answer was shown; fires many times a turn"},
	{"DirectoryAdded", false, Heartbeat, Version{2, 1, 219}, "/add-dir added a working directory"},
	{"PreModelSwitch", false, Heartbeat, Version{2, 1, 330}, "the model is about to change"},
	{"PostModelSwitch", false, Heartbeat, Version{2, 1, 330}, "the model changed"},
	{"PreSkillShellCommand", false, Heartbeat, Version{2, 1, 332}, "a skill's inline shell command is about to run (a silent exit 0 lets it); the turn's own events carry the state"},
	{"WorktreeCreate", false, Never, Oldest, "a hook here creates the worktree itself: never wired"},
	{"WorktreeRemove", false, Never, Oldest, "a hook here removes the worktree itself: never wired"},
}

// Lookup returns the spec of the event called name.
func Lookup(name string) (Spec, bool) {
	for _, s := range All {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Carries reports whether the state machine has a rule for name; any
// other name is a heartbeat.
func Carries(name string) bool {
	s, ok := Lookup(name)
	return ok && s.Role == State
}

// Wired returns the events `hud install` wires for a client of version v,
// in order: those that carry state and that v accepts. The zero Version
// (the client's version is not known) stands for Oldest, which accepts
// every name that it accepts.
func Wired(v Version) []Spec {
	if v.IsZero() {
		v = Oldest
	}
	var out []Spec
	for _, s := range All {
		if s.Role == State && !v.Less(s.Since) {
			out = append(out, s)
		}
	}
	return out
}

// Names returns the names of specs.
func Names(specs []Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// Version is a Claude Code release, major.minor.patch.
type Version [3]int

// ParseVersion reads a release number from the start of s, as
// `claude --version` prints it ("2.1.330 (Claude Code)").
func ParseVersion(s string) (Version, bool) {
	word, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	word, _, _ = strings.Cut(word, "-") // a pre-release: "2.1.97-beta.1"
	parts := strings.Split(word, ".")
	if len(parts) != 3 {
		return Version{}, false
	}
	var v Version
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return Version{}, false
		}
		v[i] = n
	}
	return v, true
}

// IsZero reports whether v is unknown.
func (v Version) IsZero() bool { return v == Version{} }

// Less reports whether v is an older release than w.
func (v Version) Less(w Version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

func (v Version) String() string {
	return strconv.Itoa(v[0]) + "." + strconv.Itoa(v[1]) + "." + strconv.Itoa(v[2])
}

// The notification_type values of the Notification event.
const (
	PermissionPrompt    = "permission_prompt"
	ElicitationDialog   = "elicitation_dialog"
	ElicitationComplete = "elicitation_complete"
	ElicitationResponse = "elicitation_response"
	AgentNeedsInput     = "agent_needs_input"
	AgentCompleted      = "agent_completed"
	IdlePrompt          = "idle_prompt"
	AuthSuccess         = "auth_success"
)

// NotificationSpec is one notification_type of the Notification event.
type NotificationSpec struct {
	Type    string
	Role    Role
	Meaning string
}

// Notifications is every notification type of the newest client hud was
// proven against. A type not listed is a heartbeat.
var Notifications = []NotificationSpec{
	{PermissionPrompt, State, "a permission dialog is up: waiting"},
	{ElicitationDialog, State, "an MCP server's question is up: waiting, with its message"},
	{AgentNeedsInput, State, "a dialog of Claude's own waits for the person (auto mode's choices, a background session's question): waiting, with its message"},
	{ElicitationComplete, State, "an MCP server's question was answered: working again"},
	{ElicitationResponse, State, "an MCP server's question was answered: working again"},
	{IdlePrompt, State, "Claude has waited at its prompt for a while: ready, unless a tool still runs"},
	{AgentCompleted, Heartbeat, "a background session finished; its own Stop says so"},
	{AuthSuccess, Heartbeat, "a login succeeded"},
}
