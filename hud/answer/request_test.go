package answer

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The payloads as Claude Code 2.1.197 and 2.1.330 send them.
const (
	npmSuggestions = `[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test *"}],"behavior":"allow","destination":"localSettings"}]`
	dirSuggestions = `[{"type":"addDirectories","directories":["/tmp/h/proj"],"destination":"session"},{"type":"setMode","mode":"acceptEdits","destination":"session"}]`
	askInput       = `{"questions":[{"question":"Which database?","header":"Choice","options":[{"label":"Yes","description":"Go ahead"},{"label":"No","description":"Leave it"}],"multiSelect":false}]}`
)

func TestChoices(t *testing.T) {
	for _, tc := range []struct {
		name    string
		d       Dialog
		subject string
		choices []Choice
	}{
		{"a rule suggested", Dialog{Tool: "Bash", Input: json.RawMessage(`{"command":"npm test"}`), Suggestions: json.RawMessage(npmSuggestions)},
			"Bash: npm test", []Choice{{Allow, "Yes"}, {Always, "Yes, and don't ask again for: npm test *"}, {Deny, "No"}}},
		{"a directory suggested", Dialog{Tool: "Bash", Input: json.RawMessage(`{"command":"touch x"}`), Suggestions: json.RawMessage(dirSuggestions)},
			"Bash: touch x", []Choice{{Allow, "Yes"}, {Always, "Yes, and always allow access to proj/ from this project"}, {Deny, "No"}}},
		{"reading a directory suggested", Dialog{Tool: "Bash", Input: json.RawMessage(`{"command":"ls -la /etc/hostname"}`),
			Suggestions: json.RawMessage(`[{"type":"addRules","rules":[{"toolName":"Read","ruleContent":"//etc/**"}],"behavior":"allow","destination":"session"}]`)},
			"Bash: ls -la /etc/hostname", []Choice{{Allow, "Yes"}, {Always, "Yes, allow reading from etc/ from this project"}, {Deny, "No"}}},
		{"nothing suggested", Dialog{Tool: "Write", Input: json.RawMessage(`{"file_path":"/p/main.go","content":"x"}`), Suggestions: json.RawMessage(`null`)},
			"Write: /p/main.go", []Choice{{Allow, "Yes"}, {Deny, "No"}}},
		{"a question", Dialog{Tool: AskUserQuestion, Input: json.RawMessage(askInput)},
			"Which database?", []Choice{{"Yes", "Yes"}, {"No", "No"}}},
		{"a multi-select question is the terminal's", Dialog{Tool: AskUserQuestion, Input: json.RawMessage(strings.Replace(askInput, `"multiSelect":false`, `"multiSelect":true`, 1))},
			"Which database?", nil},
		{"a command with a control character", Dialog{Tool: "Bash", Input: json.RawMessage(`{"command":"echo \u001b[31mred"}`)},
			"Bash: echo red", []Choice{{Allow, "Yes"}, {Deny, "No"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			subject, choices := tc.d.choices()
			if subject != tc.subject || !reflect.DeepEqual(choices, tc.choices) {
				t.Errorf("got %q %v, want %q %v", subject, choices, tc.subject, tc.choices)
			}
		})
	}
}

func TestOutput(t *testing.T) {
	bash := Dialog{Tool: "Bash", Input: json.RawMessage(`{"command":"npm test"}`), Suggestions: json.RawMessage(npmSuggestions)}
	ask := Dialog{Tool: AskUserQuestion, Input: json.RawMessage(askInput)}
	for _, tc := range []struct {
		name string
		d    Dialog
		key  string
		want string
	}{
		{"allow", bash, Allow, `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}`},
		{"always: Claude's own suggestions", bash, Always, `{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedPermissions":` + npmSuggestions + `},"hookEventName":"PermissionRequest"}}`},
		{"deny", bash, Deny, `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"The person said no (from hud)."},"hookEventName":"PermissionRequest"}}`},
		{"an option", ask, "No", `{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"answers":{"Which database?":"No"},"questions":[{"question":"Which database?","header":"Choice","options":[{"label":"Yes","description":"Go ahead"},{"label":"No","description":"Leave it"}],"multiSelect":false}]}},"hookEventName":"PermissionRequest"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.d.Output(tc.key)
			if err != nil || string(got) != tc.want {
				t.Errorf("got %s, %v\nwant %s", got, err, tc.want)
			}
		})
	}
	for _, bad := range []struct {
		d   Dialog
		key string
	}{{bash, "Yes"}, {ask, Allow}, {Dialog{Tool: "Bash"}, Always}, {ask, "Maybe"}} {
		if out, err := bad.d.Output(bad.key); err == nil {
			t.Errorf("%s: key %q gave %s, want an error", bad.d.Tool, bad.key, out)
		}
	}
}

func TestRequestBinding(t *testing.T) {
	at := time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)
	d := Dialog{Session: "s1", Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}
	a, _ := NewRequest(d, at, 1)
	b, _ := NewRequest(d, at, 1)
	if a.ID == b.ID {
		t.Error("two requests got the same ID")
	}
	if a.Digest != b.Digest {
		t.Error("the digest is not a function of session, tool, input and time")
	}
	for _, other := range []Dialog{
		{Session: "s2", Tool: "Bash", Input: d.Input},
		{Session: "s1", Tool: "Write", Input: d.Input},
		{Session: "s1", Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf /"}`)},
	} {
		if other.digest(at) == a.Digest {
			t.Errorf("%+v has the same digest", other)
		}
	}
	if d.digest(at.Add(time.Millisecond)) == a.Digest {
		t.Error("a later request has the same digest")
	}
}
