package answer

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/safefile"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/sum256"
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

// Choice returns the request's choice with key, if it offers one.
func (r *Request) Choice(key string) (Choice, bool) {
	for _, c := range r.Choices {
		if c.Key == key || strings.EqualFold(c.Key, key) {
			return c, true
		}
	}
	return Choice{}, false
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
	f, err := safefile.OpenFile("/dev/urandom", os.O_RDONLY, 0)
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
	sum := sum256.Sum(b)
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
		Label string `json:"label"`
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

// suggestion is one of Claude's permission_suggestions: what "Yes, and
// don't ask again" would add.
type suggestion struct {
	Type  string `json:"type"`
	Rules []struct {
		ToolName    string `json:"toolName"`
		RuleContent string `json:"ruleContent"`
	} `json:"rules"`
	Directories []string `json:"directories"`
}

// choices are the dialog's subject and the choices the terminal offers for
// it: a question's options (one question, one answer: the terminal asks
// anything else itself), or Yes, Yes and don't ask again (when Claude
// suggests a rule or a directory), No.
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
		subject := text.Line(q.Question, 200)
		if q.MultiSelect {
			return subject, nil
		}
		var out []Choice
		for _, o := range q.Options {
			if o.Label == "" {
				continue
			}
			out = append(out, Choice{Key: o.Label, Label: text.Line(o.Label, 80)})
		}
		return subject, out
	}
	out := []Choice{{Allow, "Yes"}}
	if always := d.alwaysLabel(); always != "" {
		out = append(out, Choice{Always, always})
	}
	return d.subject(), append(out, Choice{Deny, "No"})
}

// subject is the command, file or URL a tool's dialog is about.
func (d Dialog) subject() string {
	var in map[string]any
	_ = json.Unmarshal(d.Input, &in)
	for _, k := range []string{"command", "file_path", "notebook_path", "url", "path", "pattern", "query"} {
		if s, ok := in[k].(string); ok && s != "" {
			return text.Line(d.Tool+": "+s, 200)
		}
	}
	return text.Line(d.Tool, 200)
}

// alwaysLabel words "Yes, and don't ask again" the way the terminal does
// for what Claude suggests: the rules' patterns, or the directory; "" when
// Claude suggests nothing the terminal would offer.
func (d Dialog) alwaysLabel() string {
	var sugs []suggestion
	if json.Unmarshal(d.Suggestions, &sugs) != nil {
		return ""
	}
	var rules, reads, dirs []string
	for _, s := range sugs {
		switch s.Type {
		case "addRules":
			for _, r := range s.Rules {
				switch {
				case r.ToolName == "Read" && r.RuleContent != "":
					// "//etc/**": reading under /etc.
					reads = append(reads, dirLabel(strings.TrimSuffix(strings.TrimPrefix(r.RuleContent, "/"), "/**")))
				case r.RuleContent != "":
					rules = append(rules, r.RuleContent)
				case r.ToolName != "":
					rules = append(rules, r.ToolName)
				}
			}
		case "addDirectories":
			for _, dir := range s.Directories {
				dirs = append(dirs, dirLabel(dir))
			}
		}
	}
	switch {
	case len(rules) > 0:
		return text.Line("Yes, and don't ask again for: "+strings.Join(rules, ", "), 120)
	case len(reads) > 0 && len(dirs) == 0:
		return text.Line("Yes, allow reading from "+strings.Join(reads, ", ")+" from this project", 120)
	case len(dirs) > 0:
		return text.Line("Yes, and always allow access to "+strings.Join(append(dirs, reads...), ", ")+" from this project", 120)
	}
	return ""
}

// dirLabel is how the terminal names a directory in a choice: "proj/".
func dirLabel(dir string) string {
	return filepath.Base(filepath.Clean(dir)) + "/"
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
		decision["behavior"] = "allow"
		decision["updatedPermissions"] = d.Suggestions
	case key == Deny:
		decision["behavior"] = "deny"
		decision["message"] = "The person said no (from hud)."
	}
	return json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PermissionRequest",
		"decision":      decision,
	}})
}
