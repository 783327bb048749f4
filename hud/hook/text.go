package hook

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lengths of the short texts the hook keeps in a record, in runes: a menu
// line, not a transcript.
const (
	maxWorkingOn  = 120
	maxWaitingFor = 80
	maxLastError  = 200
)

// truncateRunes cuts s to at most n runes, marking a cut with "…" (which
// counts towards n).
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…"
}

// truncateLeft keeps the end of s, the part of a path that names the
// file, cutting the start to at most n runes.
func truncateLeft(s string, n int) string {
	count := utf8.RuneCountInString(s)
	if count <= n {
		return s
	}
	skip := count - (n - 1)
	for i := range s {
		if skip == 0 {
			return "…" + s[i:]
		}
		skip--
	}
	return "…"
}

// oneLine returns the first line of s holding anything but white space,
// with control characters dropped, trimmed, and cut to max runes. A prompt
// pasted with a leading blank line still names its task.
func oneLine(s string, max int) string {
	for line := range strings.Lines(s) {
		clean := strings.TrimSpace(stripControl(line))
		if clean != "" {
			return truncateRunes(clean, max)
		}
	}
	return ""
}

// stripControl removes control characters and whole terminal escape
// sequences (ESC [ ... final byte), turns tabs into spaces, and drops
// invalid UTF-8.
func stripControl(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			// Parameters and intermediates run up to a final byte in @..~.
			i += 2
			for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
				i++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r == utf8.RuneError || unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fileTools are the tools whose subject is one file, named by file_path or
// notebook_path.
var fileTools = map[string]bool{
	"Read": true, "Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true,
}

// toolSubjectKeys are the tool_input fields that best say what a tool is
// about to do, tried in order, for tools not handled specially.
var toolSubjectKeys = []string{"command", "file_path", "notebook_path", "path", "url", "pattern", "query", "description", "prompt"}

// describeTool says what a tool call is about in a few words, for
// waiting_for: "Bash: npm test", "Edit: src/main.go", "WebFetch: https://…".
// File paths are shown relative to cwd when inside it and keep their end
// when long.
func describeTool(name string, input json.RawMessage, cwd string) string {
	if name == "" {
		return ""
	}
	fields := map[string]json.RawMessage{}
	if len(input) > 0 && input[0] == '{' {
		_ = json.Unmarshal(input, &fields) // a tool_input we cannot read still names its tool
	}
	for _, key := range toolSubjectKeys {
		var v string
		if raw, ok := fields[key]; !ok || json.Unmarshal(raw, &v) != nil || strings.TrimSpace(v) == "" {
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
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return oneLine(s, maxLastError)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		var parts []string
		for _, key := range []string{"type", "code", "message", "error"} {
			if v := errorText(obj[key]); v != "" {
				parts = append(parts, v)
			}
		}
		if len(parts) > 0 {
			return truncateRunes(strings.Join(parts, ": "), maxLastError)
		}
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) == nil {
		return truncateRunes(stripControl(compact.String()), maxLastError)
	}
	return ""
}
