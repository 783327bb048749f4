package status

import (
	"cmp"
	"encoding/json"
	"io"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/resolver"
)

// jsonView is the document `hud status --json` prints. Every field is
// always present, so scripts need not guess.
type jsonView struct {
	State    resolver.State `json:"state"`
	Sessions []jsonSession  `json:"sessions"`
	// HooksProblem is View.HooksProblem: "" when the state can be trusted.
	HooksProblem string `json:"hooks_problem"`
}

type jsonSession struct {
	SessionID  string             `json:"session_id"`
	Agent      string             `json:"agent"`
	State      resolver.State     `json:"state"`
	CWD        string             `json:"cwd"`
	ProjectDir string             `json:"project_dir"`
	Project    string             `json:"project"`
	Name       string             `json:"name"`
	WorkingOn  string             `json:"working_on"`
	WaitingFor string             `json:"waiting_for"`
	Agents     int                `json:"agents"`
	PID        *int               `json:"pid"` // null when unknown
	Since      resolver.Timestamp `json:"since"`
	UpdatedAt  resolver.Timestamp `json:"updated_at"`
	Source     resolver.Source    `json:"source"`
	// Activity is null when the hook recorded nothing for the session.
	Activity *activity.Facts `json:"activity"`
}

func toJSON(s *Session) jsonSession {
	j := jsonSession{
		SessionID:  s.SessionID,
		Agent:      cmp.Or(s.Agent, resolver.AgentClaude),
		State:      s.State,
		CWD:        s.CWD,
		ProjectDir: s.ProjectDir,
		Project:    s.Project,
		Name:       s.Name,
		WorkingOn:  s.WorkingOn,
		WaitingFor: s.WaitingFor,
		Agents:     s.Agents,
		Since:      resolver.At(s.Since),
		UpdatedAt:  resolver.At(s.UpdatedAt),
		Source:     s.Source,
		Activity:   s.Activity,
	}
	if s.PID != 0 {
		pid := s.PID
		j.PID = &pid
	}
	return j
}

// newJSONView is the document for v, shared by the indented and the
// one-line rendering.
func newJSONView(v *View) jsonView {
	doc := jsonView{State: v.State, Sessions: make([]jsonSession, 0, len(v.Sessions)), HooksProblem: v.HooksProblem}
	for i := range v.Sessions {
		doc.Sessions = append(doc.Sessions, toJSON(&v.Sessions[i]))
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
	State      resolver.State `json:"state"`
	IsFromLock bool           `json:"is_from_lock"`
	SessionID  string         `json:"session_id"`
	CWD        string         `json:"cwd"`
	Match      string         `json:"match"`
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
