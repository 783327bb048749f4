package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// Lengths of the short texts the hook keeps in a record, in runes: a menu
// line, not a transcript.
const (
	maxWorkingOn  = 120
	maxWaitingFor = 80
	maxLastError  = 200
)

// The hook's short texts come from hud/text, the one sanitizer for
// everything shown to a person or handed to Claude.
var (
	truncateRunes = text.Truncate
	truncateLeft  = text.TruncateLeft
	oneLine       = text.FirstLine
)

// fileTools are the tools whose subject is one file, named by file_path or
// notebook_path.
var fileTools = map[string]bool{
	"Read": true, "Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true,
}

// toolSubjectKeys are the tool_input fields that best say what a tool is
// about to do, tried in order, for tools not handled specially.
var toolSubjectKeys = [...]string{"command", "file_path", "notebook_path", "path", "url", "pattern", "query", "description", "prompt"}

// describeTool says what a tool call is about in a few words, for
// waiting_for: "Bash: npm test", "Edit: src/main.go", "WebFetch: https://…".
// File paths are shown relative to cwd when inside it and keep their end
// when long.
func describeTool(name string, input json.RawMessage, cwd string) string {
	if name == "" {
		return ""
	}
	subjects := toolSubjects(input)
	for i, key := range toolSubjectKeys {
		v := subjects[i]
		if strings.TrimSpace(v) == "" {
			continue
		}
		room := maxWaitingFor - utf8.RuneCountInString(name) - 2
		if fileTools[name] || strings.HasSuffix(key, "path") {
			return name + ": " + truncateLeft(relativeTo(cwd, v), max(room, 8))
		}
		return name + ": " + oneLine(v, max(room, 8))
	}
	return truncateRunes(name, maxWaitingFor)
}

// toolSubjects returns the string values of tool_input's toolSubjectKeys,
// in their order ("" for a key missing or not a string). The keys are
// matched exactly, not folded as a struct's would be: a tool's input is
// the tool's own, and "Command" is not its command. A tool_input that
// cannot be read still names its tool.
func toolSubjects(input json.RawMessage) (v [len(toolSubjectKeys)]string) {
	if len(input) == 0 || input[0] != '{' {
		return v
	}
	var fields [len(toolSubjectKeys)]jsonfields.Field
	for i, key := range toolSubjectKeys {
		fields[i] = jsonfields.String(key, &v[i])
	}
	if err := jsonfields.Decode(input, fields[:]...); err != nil && !errors.As(err, new(*jsonfields.TypeError)) {
		return [len(toolSubjectKeys)]string{} // not JSON: no subject at all
	}
	return v
}

// relativeTo shows p relative to dir when it lies inside it.
func relativeTo(dir, p string) string {
	if dir == "" || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}

// errorText turns an event's error field into one short line: a JSON
// string as is (PostToolUseFailure), an object by its message, type or
// code (StopFailure), anything else as compact JSON.
func errorText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	if s, err := jsonfields.Unquote(raw); err == nil {
		return oneLine(s, maxLastError)
	}
	var obj [4]json.RawMessage // type, code, message, error
	if raw[0] == '{' && jsonfields.Decode(raw,
		jsonfields.Raw("type", &obj[0]), jsonfields.Raw("code", &obj[1]),
		jsonfields.Raw("message", &obj[2]), jsonfields.Raw("error", &obj[3])) == nil {
		var parts []string
		for _, v := range obj {
			if t := errorText(v); t != "" {
				parts = append(parts, t)
			}
		}
		if len(parts) > 0 {
			return truncateRunes(strings.Join(parts, ": "), maxLastError)
		}
	}
	if compact, err := jsonfields.Compact(nil, raw); err == nil {
		return text.Line(string(compact), maxLastError)
	}
	return ""
}
