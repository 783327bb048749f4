package remote

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
	"github.com/capacitor-hud/hud/resolver"
)

// Bounds on what one machine may send: a line is one state of all its
// sessions, a few KiB each; beyond these the stream is broken or hostile,
// and it is cut rather than read.
const (
	// MaxLine is the longest line read; a longer one ends the connection.
	MaxLine = 4 << 20
	// MaxSessions is how many of a machine's sessions are shown (the most
	// urgent first, as the remote orders them).
	MaxSessions = 50
)

// Lengths, in runes, of the texts kept from a remote session.
const (
	maxID   = 128
	maxPath = 1024
	maxName = 200
	maxText = 500
)

// VersionError is a stream whose version this hud cannot read: 0 is a
// remote hud older than the versioned stream, a higher one a newer hud.
type VersionError struct{ Got int }

func (e *VersionError) Error() string {
	if e.Got < status.Version {
		return "the hud there is too old for remotes (its status stream has no version) — update it there"
	}
	return fmt.Sprintf("the hud there is newer than this one (stream version %d, this hud reads %d) — update hud here", e.Got, status.Version)
}

// Decode reads one line of a remote's stream into its sessions, labelled
// with host and made safe to show. A line that is not the document, or of
// another version, is an error: the reader stops rather than guess.
func Decode(line []byte, host string, now time.Time) ([]view.Session, error) {
	var doc struct {
		Version  int                  `json:"version"`
		Sessions []status.JSONSession `json:"sessions"`
	}
	if err := json.Unmarshal(line, &doc); err != nil {
		return nil, fmt.Errorf("the remote's status stream is not JSON: %w", err)
	}
	if doc.Version != status.Version {
		return nil, &VersionError{Got: doc.Version}
	}
	out := make([]view.Session, 0, min(len(doc.Sessions), MaxSessions))
	for i := range doc.Sessions {
		if len(out) == MaxSessions {
			break
		}
		if s, ok := session(&doc.Sessions[i], host, now); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// session is one remote session as a view. Every text is made plain and
// cut; times in the future (the machines' clocks differ) are taken as
// now. A state this hud does not know is not shown: it cannot say what it
// means. The remote's pid is left out: it names a process over there,
// and nothing here may act on it. Its tmux pane is kept when it is a pane
// id ("%" and digits): a click attaches to it with ssh on that machine.
func session(j *status.JSONSession, host string, now time.Time) (view.Session, bool) {
	st := j.State
	known := false
	for _, s := range view.Shown {
		known = known || s == st
	}
	id := text.Line(j.SessionID, maxID)
	if !known || id == "" {
		return view.Session{}, false
	}
	return view.Session{
		Key:        "remote:" + host + ":" + id,
		SessionID:  id,
		State:      st,
		Since:      past(j.Since.Time, now),
		UpdatedAt:  past(j.UpdatedAt.Time, now),
		Source:     resolver.Source(text.Line(string(j.Source), 16)),
		CWD:        path(j.CWD),
		ProjectDir: path(j.ProjectDir),
		ClaudeName: text.Line(j.Name, maxName),
		WorkingOn:  text.Line(j.WorkingOn, maxText),
		WaitingFor: text.Line(j.WaitingFor, maxText),
		Subagents:  min(max(j.Subagents, 0), 99),
		Hooked:     true,
		Host:       host,
		Terminal:   terminal.Terminal{TmuxPane: j.TmuxPane}.Checked(),
		Context:    remoteContext(j.Context, now),
	}, true
}

// path keeps a remote path as it is written, minus what could act on a
// terminal and its line breaks (every surface shows a path on one line,
// and `hud status --json`'s readers split on them), and cut.
func path(p string) string {
	return text.Truncate(strings.ReplaceAll(text.Strip(p), "\n", " "), maxPath)
}

func past(t, now time.Time) time.Time {
	if t.After(now) {
		return now
	}
	return t
}
