package status

import (
	"cmp"
	"encoding/json"
	"io"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// Version is the version of the JSON document, in its "version" field.
// It is also the version of the stream `hud status --watch --json` prints
// (one document per line), which a remote's reader (hud/remote) checks:
// within a version fields are only ever added, so a reader ignores the
// ones it does not know; a change a reader could misread takes a new
// version. See docs/remote.md.
const Version = 1

// JSON is the document `hud status --json` prints. Every field is always
// present, so scripts need not guess.
type JSON struct {
	Version  int           `json:"version"`
	State    store.State   `json:"state"`
	Sessions []JSONSession `json:"sessions"`
	// HooksProblem is View.HooksProblem: "" when the state can be trusted.
	HooksProblem string `json:"hooks_problem"`
	// Remotes are View.Remotes; empty in the stream of --watch, which
	// is this machine's sessions alone.
	Remotes []JSONRemote `json:"remotes"`
	// Accounts are the Claude accounts' usage limits, one per followed
	// config directory; empty in the stream of --watch.
	Accounts []JSONAccount `json:"accounts"`
}

// JSONAccount is one Claude account's usage limits: each window null
// while unknown (an API-key login, no status line run yet, its reset
// passed), at null when nothing is known.
type JSONAccount struct {
	// Agent is the agent whose account it is: "claude", "codex".
	Agent string `json:"agent"`
	// ConfigDir is the account's Claude config directory, written out
	// (~/.claude as itself); a Codex home for Codex.
	ConfigDir string           `json:"config_dir"`
	FiveHour  *JSONWindow      `json:"five_hour"`
	SevenDay  *JSONWindow      `json:"seven_day"`
	At        *store.Timestamp `json:"at"`
}

// JSONWindow is one usage window: the share used, as Claude gives it,
// and when it starts afresh (null when not given).
type JSONWindow struct {
	UsedPercent float64          `json:"used_percentage"`
	ResetsAt    *store.Timestamp `json:"resets_at"`
}

func jsonWindow(r *resolver.RateLimit) *JSONWindow {
	if r == nil {
		return nil
	}
	w := &JSONWindow{UsedPercent: r.UsedPercent}
	if !r.ResetsAt.IsZero() {
		t := store.At(r.ResetsAt)
		w.ResetsAt = &t
	}
	return w
}

func jsonAccount(a *view.Account, now time.Time) JSONAccount {
	j := JSONAccount{Agent: cmp.Or(a.Agent, resolver.AgentClaude), ConfigDir: a.ConfigDir, FiveHour: jsonWindow(a.FiveHour.Known(now)), SevenDay: jsonWindow(a.SevenDay.Known(now))}
	if j.FiveHour != nil || j.SevenDay != nil {
		t := store.At(a.At)
		j.At = &t
	}
	return j
}

// JSONRemote is one remote machine in the document.
type JSONRemote struct {
	Host string `json:"host"`
	// Reachable is set while the machine's stream is live.
	Reachable bool `json:"reachable"`
	// Connecting is set until the machine first answered or failed.
	Connecting bool            `json:"connecting"`
	Since      store.Timestamp `json:"since"`
	// Problem is what to do about the remote's hud; Detail is ssh's word
	// on the last failure.
	Problem string `json:"problem"`
	Detail  string `json:"detail"`
}

// JSONSession is one session in the document.
type JSONSession struct {
	SessionID  string          `json:"session_id"`
	Agent      string          `json:"agent"`
	State      store.State     `json:"state"`
	CWD        string          `json:"cwd"`
	ProjectDir string          `json:"project_dir"`
	Project    string          `json:"project"`
	Name       string          `json:"name"`
	WorkingOn  string          `json:"working_on"`
	WaitingFor string          `json:"waiting_for"`
	Subagents  int             `json:"agents"` // subagents running; the key predates the word
	PID        *int            `json:"pid"`    // null when unknown
	Since      store.Timestamp `json:"since"`
	UpdatedAt  store.Timestamp `json:"updated_at"`
	Source     resolver.Source `json:"source"`
	// Host is the remote machine the session runs on; "" for this one.
	Host string `json:"host"`
	// TmuxPane is the tmux pane Claude runs in ("%3"), "" outside tmux:
	// a reader on another machine attaches to it over ssh.
	TmuxPane string `json:"tmux_pane"`
	// Activity is null when the hook recorded nothing for the session.
	Activity *activity.Facts `json:"activity"`
	// Context is the session's context window in use; null when unknown.
	Context *JSONContext `json:"context"`
}

// JSONContext is a session's context window in use: tokens of window,
// percent the share (as Claude rounds it), where each figure comes from
// and when it was learnt (resolver.Context).
type JSONContext struct {
	Tokens     int             `json:"tokens"`
	Window     int             `json:"window"`
	Percent    int             `json:"percent"`
	Model      string          `json:"model"`
	From       string          `json:"from"`
	WindowFrom string          `json:"window_from"`
	At         store.Timestamp `json:"at"`
}

// jsonContext is c in the document; nil for nil.
func jsonContext(c *resolver.Context) *JSONContext {
	if c == nil {
		return nil
	}
	return &JSONContext{Tokens: c.Tokens, Window: c.Window, Percent: c.Percent(), Model: c.Model,
		From: c.From, WindowFrom: c.WindowFrom, At: store.At(c.At)}
}

func toJSON(s *view.Session) JSONSession {
	j := JSONSession{
		Host:       s.Host,
		SessionID:  s.SessionID,
		Agent:      cmp.Or(s.Agent, resolver.AgentClaude),
		State:      s.State,
		CWD:        s.CWD,
		ProjectDir: s.ProjectDir,
		Project:    s.Project(),
		Name:       s.ClaudeName,
		WorkingOn:  s.WorkingOn,
		WaitingFor: s.WaitingFor,
		Subagents:  s.Subagents,
		Since:      store.At(s.Since),
		UpdatedAt:  store.At(s.UpdatedAt),
		Source:     s.Source,
		TmuxPane:   s.TmuxPane,
		Activity:   s.Activity,
		Context:    jsonContext(s.Context),
	}
	if s.PID != 0 {
		pid := s.PID
		j.PID = &pid
	}
	return j
}

// newJSONView is the document for v, shared by the indented and the
// one-line rendering.
func newJSONView(v *View) JSON {
	doc := JSON{
		Version:      Version,
		State:        v.State,
		Sessions:     make([]JSONSession, 0, len(v.Sessions)),
		HooksProblem: v.HooksProblem,
		Remotes:      make([]JSONRemote, 0, len(v.Remotes)),
		Accounts:     make([]JSONAccount, 0, len(v.Accounts)),
	}
	for i := range v.Accounts {
		doc.Accounts = append(doc.Accounts, jsonAccount(&v.Accounts[i], v.Now))
	}
	for i := range v.Sessions {
		doc.Sessions = append(doc.Sessions, toJSON(&v.Sessions[i]))
	}
	for _, r := range v.Remotes {
		doc.Remotes = append(doc.Remotes, JSONRemote{
			Host: r.Host, Reachable: r.Up, Connecting: r.Connecting, Since: store.At(r.Since), Problem: r.Problem, Detail: r.Detail,
		})
	}
	return doc
}

// WriteJSON prints {"state": <aggregate>, "sessions": [...]}.
func WriteJSON(w io.Writer, v *View) error { return encode(w, newJSONView(v)) }

type jsonProject struct {
	Project  string        `json:"project"`
	Resolved *jsonResolved `json:"resolved"`
}

type jsonResolved struct {
	State      store.State `json:"state"`
	IsFromLock bool        `json:"is_from_lock"`
	SessionID  string      `json:"session_id"`
	CWD        string      `json:"cwd"`
	Match      string      `json:"match"`
}

// WriteProjectJSON prints {"project": PATH, "resolved": null} or
// {"project": PATH, "resolved": {"state", "is_from_lock", "session_id",
// "cwd", "match"}}.
func WriteProjectJSON(w io.Writer, p *ProjectView) error {
	doc := jsonProject{Project: p.Project}
	if r := p.Resolved; r != nil {
		doc.Resolved = &jsonResolved{
			State:      r.State,
			IsFromLock: r.IsFromLock,
			SessionID:  r.SessionID,
			CWD:        r.CWD,
			Match:      r.Match.String(),
		}
	}
	return encode(w, doc)
}

func encode(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
