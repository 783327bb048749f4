package resolver

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// The hook decodes one record and encodes it again on every event, in a
// fresh process: encoding/json would first build its reflection caches
// for Record, which costs a fresh process more than the work itself. So a
// record has a hand-written encoder and decoder, held to encoding/json's
// output and results by tests that fill every field of Record by
// reflection: a field added to Record and not here fails them.

// AppendRecord appends r as json.MarshalIndent(r, prefix, "  ") writes it,
// byte for byte: the layout of a record inside the store file.
func AppendRecord(dst []byte, r *Record, prefix string) []byte {
	e := recordEncoder{out: dst, prefix: prefix}
	e.open('{')
	e.str("session_id", r.SessionID, false)
	e.str("state", string(r.State), false)
	e.str("cwd", r.CWD, false)
	e.ts("updated_at", r.UpdatedAt, false)
	e.ts("state_changed_at", r.StateChangedAt, false)
	e.str("working_on", r.WorkingOn, true)
	e.str("project_dir", r.ProjectDir, true)
	if ev := r.LastEvent; ev != nil {
		e.key("last_event")
		e.open('{')
		e.str("event", ev.Event, false)
		e.ts("timestamp", ev.Timestamp, false)
		e.close('}')
	}
	e.int("pid", int64(r.PID))
	e.int("proc_started", r.ProcStarted)
	e.str("config_dir", r.ConfigDir, true)
	e.int("tools_in_flight", int64(r.ToolsInFlight))
	e.str("permission_mode", r.PermissionMode, true)
	e.str("last_tool", r.LastTool, true)
	e.str("waiting_for", r.WaitingFor, true)
	e.str("waiting_tool", r.WaitingTool, true)
	e.str("tmux_pane", r.TmuxPane, true)
	e.str("term_program", r.TermProgram, true)
	e.str("transcript_path", r.TranscriptPath, true)
	e.ts("turn_started_at", r.TurnStartedAt, true)
	e.str("last_error", r.LastError, true)
	e.str("compact_trigger", r.CompactTrigger, true)
	if len(r.Agents) > 0 {
		e.key("agents")
		e.open('[')
		for _, a := range r.Agents {
			e.elem()
			e.out = AppendJSONString(e.out, a)
		}
		e.close(']')
	}
	e.close('}')
	return e.out
}

// recordEncoder writes an indented JSON value piece by piece.
type recordEncoder struct {
	out    []byte
	prefix string
	depth  int  // open objects and arrays
	first  bool // nothing written yet in the innermost one
}

func (e *recordEncoder) open(c byte) {
	e.out = append(e.out, c)
	e.depth++
	e.first = true
}

// close ends the innermost object or array, which is never empty here.
func (e *recordEncoder) close(c byte) {
	e.depth--
	e.newline()
	e.out = append(e.out, c)
	e.first = false
}

// elem starts a field or an array element on a line of its own.
func (e *recordEncoder) elem() {
	if !e.first {
		e.out = append(e.out, ',')
	}
	e.first = false
	e.newline()
}

func (e *recordEncoder) newline() {
	e.out = append(e.out, '\n')
	e.out = append(e.out, e.prefix...)
	for range e.depth {
		e.out = append(e.out, "  "...)
	}
}

func (e *recordEncoder) key(name string) {
	e.elem()
	e.out = append(e.out, '"')
	e.out = append(e.out, name...)
	e.out = append(e.out, `": `...)
}

func (e *recordEncoder) str(name, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	e.key(name)
	e.out = AppendJSONString(e.out, v)
}

func (e *recordEncoder) int(name string, v int64) {
	if v == 0 {
		return
	}
	e.key(name)
	e.out = strconv.AppendInt(e.out, v, 10)
}

func (e *recordEncoder) ts(name string, v Timestamp, omitZero bool) {
	if omitZero && v.IsZero() {
		return
	}
	e.key(name)
	b, _ := v.MarshalJSON() // never fails
	e.out = append(e.out, b...)
}

// AppendJSONString appends s quoted as encoding/json writes a string (its
// HTML escaping included): a test holds the two to the same bytes for
// every ASCII byte, invalid UTF-8 and the JavaScript line separators.
func AppendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// DecodeRecord decodes one record as json.Unmarshal into a *Record would:
// the same record or an error (nil for JSON null). The record as the hook
// and AppendRecord write it is read by hand; anything else (an unknown or
// miscased field, a null, a number out of range, an odd escape) goes to
// encoding/json, which decides and words the error.
func DecodeRecord(b []byte) (*Record, error) {
	if r, ok := decodeRecordFast(b); ok {
		return r, nil
	}
	var r *Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return r, nil
}

// errFallback is what the fast decoder reports for anything it leaves to
// encoding/json.
var errFallback = errors.New("not the plain form")

func decodeRecordFast(b []byte) (*Record, bool) {
	s := jsonScanner{b: b}
	r := &Record{}
	err := s.object(func(key string) error {
		switch key {
		case "session_id":
			return s.str(&r.SessionID)
		case "state":
			return s.str((*string)(&r.State))
		case "cwd":
			return s.str(&r.CWD)
		case "updated_at":
			return s.timestamp(&r.UpdatedAt)
		case "state_changed_at":
			return s.timestamp(&r.StateChangedAt)
		case "working_on":
			return s.str(&r.WorkingOn)
		case "project_dir":
			return s.str(&r.ProjectDir)
		case "last_event":
			if r.LastEvent == nil {
				r.LastEvent = &LastEvent{}
			}
			ev := r.LastEvent // a repeated key fills in the same one
			return s.object(func(key string) error {
				switch key {
				case "event":
					return s.str(&ev.Event)
				case "timestamp":
					return s.timestamp(&ev.Timestamp)
				}
				return errFallback
			})
		case "pid":
			return s.int(&r.PID)
		case "proc_started":
			return s.int64(&r.ProcStarted)
		case "config_dir":
			return s.str(&r.ConfigDir)
		case "tools_in_flight":
			return s.int(&r.ToolsInFlight)
		case "permission_mode":
			return s.str(&r.PermissionMode)
		case "last_tool":
			return s.str(&r.LastTool)
		case "waiting_for":
			return s.str(&r.WaitingFor)
		case "waiting_tool":
			return s.str(&r.WaitingTool)
		case "tmux_pane":
			return s.str(&r.TmuxPane)
		case "term_program":
			return s.str(&r.TermProgram)
		case "transcript_path":
			return s.str(&r.TranscriptPath)
		case "turn_started_at":
			return s.timestamp(&r.TurnStartedAt)
		case "last_error":
			return s.str(&r.LastError)
		case "compact_trigger":
			return s.str(&r.CompactTrigger)
		case "agents":
			return s.strList(&r.Agents)
		}
		return errFallback
	})
	if err != nil || !s.end() {
		return nil, false
	}
	return r, true
}
