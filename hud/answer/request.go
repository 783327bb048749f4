package answer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/text"
)

// The choice keys of a permission dialog. A question's choices are keyed
// by their option's label.
const (
	Allow  = "allow"
	Always = "always"
	Deny   = "deny"
)

// AskUserQuestion is the tool whose dialog is a question with options;
// ExitPlanMode's is the plan approval, which only the terminal answers.
const (
	AskUserQuestion = "AskUserQuestion"
	ExitPlanMode    = "ExitPlanMode"
)

// Request is one dialog as the hook offers it to the tray.
type Request struct {
	// ID names this request alone: 128 random bits, chosen by the hook.
	ID      string `json:"id"`
	Session string `json:"session"`
	// Project is the session's project directory (its cwd when none).
	Project string `json:"project"`
	Tool    string `json:"tool"`
	// Digest binds the request to its session, tool, input and time: an
	// answer names it with the ID, and both must match.
	Digest string `json:"digest"`
	// Subject is what the dialog is about: the command, the file, the
	// question.
	Subject string    `json:"subject"`
	Choices []Choice  `json:"choices"`
	At      time.Time `json:"at"`
	// PID is the hook's process, which waits for the answer.
	PID int `json:"pid"`
}

// Choice is one answer a dialog offers, as the terminal words it.
type Choice struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// Choice returns the request's choice with key, if it offers one (Pick).
func (r *Request) Choice(key string) (Choice, bool) {
	c, err := r.Pick(key)
	return c, err == nil
}

// Pick returns the request's choice with key: the choice spelled exactly
// so, else the one choice that matches it ignoring case ("Allow" for
// allow). When case alone tells choices apart ("staging", "STAGING"), only
// the exact spelling picks one: a guess could be the choice the person
// did not mean.
func (r *Request) Pick(key string) (Choice, error) {
	var found []Choice
	for _, c := range r.Choices {
		if c.Key == key {
			return c, nil
		}
		if strings.EqualFold(c.Key, key) {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return Choice{}, fmt.Errorf("%q is not a choice of this dialog; it offers %q", key, r.Keys())
	case 1:
		return found[0], nil
	}
	return Choice{}, fmt.Errorf("%q matches %d choices of this dialog but for case; spell it exactly: %q", key, len(found), r.Keys())
}

// Keys lists the request's choice keys, for messages.
func (r *Request) Keys() []string {
	keys := make([]string, len(r.Choices))
	for i, c := range r.Choices {
		keys[i] = c.Key
	}
	return keys
}

// Dialog is what the hook knows of one PermissionRequest: enough to
// offer it and to write Claude the decision for a choice.
type Dialog struct {
	Session string
	Tool    string
	// Input is the tool_input, Suggestions the permission_suggestions,
	// both as Claude sent them.
	Input       json.RawMessage
	Suggestions json.RawMessage
	// Project is the session's project directory.
	Project string
}

// NewRequest makes the request for d at time at, with a fresh ID.
func NewRequest(d Dialog, at time.Time, pid int) (Request, error) {
	var id [16]byte
	if err := randomBytes(id[:]); err != nil {
		return Request{}, fmt.Errorf("choosing a request id: %w", err)
	}
	subject, choices := d.choices()
	return Request{
		ID:      hex.EncodeToString(id[:]),
		Session: d.Session,
		Project: d.Project,
		Tool:    d.Tool,
		Digest:  d.digest(at),
		Subject: subject,
		Choices: choices,
		At:      at,
		PID:     pid,
	}, nil
}

// randomBytes fills b from the system's random source. It reads
// /dev/urandom rather than use crypto/rand, which the hook would link for
// this alone, with its package initialisation on every run (Go's FIPS 140
// module and math/big come with it).
func randomBytes(b []byte) error {
	f, err := os.Open("/dev/urandom")
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.ReadFull(f, b)
	return err
}

// digest is the SHA-256 of the session, tool, input and time.
func (d Dialog) digest(at time.Time) string {
	var b []byte
	for _, part := range [][]byte{[]byte(d.Session), []byte(d.Tool), compact(d.Input), []byte(at.UTC().Format(time.RFC3339Nano))} {
		b = strconv.AppendInt(b, int64(len(part)), 10)
		b = append(b, ':')
		b = append(b, part...)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// Question is one of an AskUserQuestion call's questions.
type Question struct {
	Question    string `json:"question"`
	Header      string `json:"header"`
	MultiSelect bool   `json:"multiSelect"`
	Options     []struct {
		Label       string `json:"label"`
		Description string `json:"description"`
	} `json:"options"`
}

// Questions reads an AskUserQuestion call's input: its questions, none
// when it holds none or cannot be read.
func Questions(input json.RawMessage) []Question {
	var in struct {
		Questions []Question `json:"questions"`
	}
	_ = json.Unmarshal(input, &in)
	return in.Questions
}

// choices are the dialog's subject and the choices the terminal offers for
// it: a question's options (one question, one answer: the terminal asks
// anything else itself), or Yes, Yes and don't ask again (when Claude
// suggests a rule or a directory hud can name whole), No.
//
// A dialog whose subject cannot be shown whole (cut to fit, or holding
// characters a person cannot see) offers no choice at all: a "Yes" from
// the tray would allow more than the person read, and the terminal shows
// the dialog in full.
func (d Dialog) choices() (string, []Choice) {
	if d.Tool == ExitPlanMode {
		// The terminal's plan dialog offers ways to go on (accept edits
		// or not, keep planning) that a plain allow cannot say.
		return "plan approval", nil
	}
	if d.Tool == AskUserQuestion {
		qs := Questions(d.Input)
		if len(qs) != 1 {
			return fmt.Sprintf("%d questions", len(qs)), nil
		}
		q := qs[0]
		subject, whole := shownWhole(q.Question, maxSubject)
		if q.MultiSelect || !whole {
			return subject, nil
		}
		var out []Choice
		for _, o := range q.Options {
			if o.Label == "" {
				continue
			}
			// The option as the terminal shows it: its label, then what
			// it means ("No — this deletes prod"), which the person
			// agrees to as much as to the label.
			label, whole := o.Label, true
			if o.Description != "" {
				label, whole = shownWhole(o.Label+" — "+o.Description, maxLabel)
			}
			if !whole || text.Line(o.Label, maxLabel) != o.Label || slices.ContainsFunc(out, func(c Choice) bool { return c.Key == o.Label }) {
				// The answer Claude reads is the label as written: one
				// the person cannot see exactly, a description cut or
				// hiding characters, or two options that read the same
				// leave the question to the terminal.
				return subject, nil
			}
			out = append(out, Choice{Key: o.Label, Label: label})
		}
		return subject, out
	}
	subject, whole := d.subject()
	if !whole {
		return subject, nil
	}
	out := []Choice{{Allow, "Yes"}}
	if always, _ := d.always(); always != "" {
		out = append(out, Choice{Always, always})
	}
	return subject, append(out, Choice{Deny, "No"})
}

// Bounds on what a dialog shows: the subject, and a choice's label.
const (
	maxSubject = 200
	maxLabel   = 160
)

// shownWhole is s as a dialog shows it (text.Line: one line, at most max
// runes) and whether that shows all of s: nothing cut, nothing removed
// (escape sequences, control characters, bidirectional overrides, invalid
// UTF-8). Runs of white space shown as one space hide nothing.
func shownWhole(s string, max int) (string, bool) {
	shown := text.Line(s, max)
	return shown, shown == strings.Join(strings.Fields(s), " ")
}

// subject is the command, file or URL a tool's dialog is about, and
// whether it is shown whole. A command is whole only with nothing beside
// it but what changes nothing it runs (a sandbox switch, or a field hud
// does not know, could). A tool whose input names none of these (an MCP
// server's) shows its whole input: a Yes allows the call as written.
func (d Dialog) subject() (string, bool) {
	var in map[string]any
	_ = json.Unmarshal(d.Input, &in)
	if cmd, ok := in["command"].(string); ok && cmd != "" && d.Tool == "Bash" {
		shown, whole := shownWhole(d.Tool+": "+cmd, maxSubject)
		for k, v := range in {
			if k != "command" && !bashAside[k] && !isZero(v) {
				whole = false
			}
		}
		return shown, whole
	}
	for _, k := range []string{"command", "file_path", "notebook_path", "url", "path", "pattern", "query"} {
		if s, ok := in[k].(string); ok && s != "" {
			return shownWhole(d.Tool+": "+s, maxSubject)
		}
	}
	if len(in) == 0 {
		return shownWhole(d.Tool, maxSubject)
	}
	return shownWhole(d.Tool+": "+string(compact(d.Input)), maxSubject)
}

// bashAside are the fields of a Bash call that change nothing it runs:
// Claude's own words for it, and how long and where it waits.
var bashAside = map[string]bool{"description": true, "timeout": true, "run_in_background": true}

// isZero reports a JSON value that says nothing: null, false, 0, "".
func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == ""
	}
	return false
}

// Output is what the hook prints for Claude when the person chose key:
// the PermissionRequest hook's decision. It is built from the dialog's own
// payload alone; a key the dialog does not offer is an error.
func (d Dialog) Output(key string) ([]byte, error) {
	_, choices := d.choices()
	found := false
	for _, c := range choices {
		if c.Key == key {
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("%q is not one of the dialog's choices", key)
	}
	decision := map[string]any{}
	switch {
	case d.Tool == AskUserQuestion:
		var in map[string]json.RawMessage
		if err := json.Unmarshal(d.Input, &in); err != nil {
			return nil, fmt.Errorf("the question's input: %w", err)
		}
		answers, _ := json.Marshal(map[string]string{Questions(d.Input)[0].Question: key})
		in["answers"] = answers
		decision["behavior"] = "allow"
		decision["updatedInput"] = in
	case key == Allow:
		decision["behavior"] = "allow"
	case key == Always:
		_, update := d.always()
		decision["behavior"] = "allow"
		decision["updatedPermissions"] = []permissionUpdate{update}
	case key == Deny:
		decision["behavior"] = "deny"
		decision["message"] = "The person said no (from hud)."
	}
	return json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PermissionRequest",
		"decision":      decision,
	}})
}
