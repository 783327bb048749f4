package resolver

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/capacitor-hud/hud/internal/jsonscan"
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
	e.str("agent", r.Agent, true)
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
	e.str("tmux_socket", r.TmuxSocket, true)
	e.str("term_program", r.TermProgram, true)
	e.str("kitty_window_id", r.KittyWindow, true)
	e.str("kitty_listen_on", r.KittyListenOn, true)
	e.str("wezterm_pane", r.WeztermPane, true)
	e.str("wezterm_socket", r.WeztermSocket, true)
	e.str("window_id", r.WindowID, true)
	e.str("transcript_path", r.TranscriptPath, true)
	e.ts("turn_started_at", r.TurnStartedAt, true)
	e.str("last_error", r.LastError, true)
	e.str("compact_trigger", r.CompactTrigger, true)
	if len(r.Subagents) > 0 {
		e.key("agents")
		e.open('[')
		for _, a := range r.Subagents {
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

func decodeRecordFast(b []byte) (*Record, bool) {
	s := jsonscan.New(b)
	r := &Record{}
	str := s.String
	err := s.Object(func(key string) error {
		switch key {
		case "session_id":
			return str(&r.SessionID)
		case "agent":
			return str(&r.Agent)
		case "state":
			return str((*string)(&r.State))
		case "cwd":
			return str(&r.CWD)
		case "updated_at":
			return ScanTimestamp(s, &r.UpdatedAt)
		case "state_changed_at":
			return ScanTimestamp(s, &r.StateChangedAt)
		case "working_on":
			return str(&r.WorkingOn)
		case "project_dir":
			return str(&r.ProjectDir)
		case "last_event":
			if r.LastEvent == nil {
				r.LastEvent = &LastEvent{}
			}
			ev := r.LastEvent // a repeated key fills in the same one
			return s.Object(func(key string) error {
				switch key {
				case "event":
					return str(&ev.Event)
				case "timestamp":
					return ScanTimestamp(s, &ev.Timestamp)
				}
				return jsonscan.ErrFallback
			})
		case "pid":
			n, err := s.Int(strconv.IntSize)
			r.PID = int(n)
			return err
		case "proc_started":
			n, err := s.Int(64)
			r.ProcStarted = n
			return err
		case "config_dir":
			return str(&r.ConfigDir)
		case "tools_in_flight":
			n, err := s.Int(strconv.IntSize)
			r.ToolsInFlight = int(n)
			return err
		case "permission_mode":
			return str(&r.PermissionMode)
		case "last_tool":
			return str(&r.LastTool)
		case "waiting_for":
			return str(&r.WaitingFor)
		case "waiting_tool":
			return str(&r.WaitingTool)
		case "tmux_pane":
			return str(&r.TmuxPane)
		case "tmux_socket":
			return str(&r.TmuxSocket)
		case "term_program":
			return str(&r.TermProgram)
		case "kitty_window_id":
			return str(&r.KittyWindow)
		case "kitty_listen_on":
			return str(&r.KittyListenOn)
		case "wezterm_pane":
			return str(&r.WeztermPane)
		case "wezterm_socket":
			return str(&r.WeztermSocket)
		case "window_id":
			return str(&r.WindowID)
		case "transcript_path":
			return str(&r.TranscriptPath)
		case "turn_started_at":
			return ScanTimestamp(s, &r.TurnStartedAt)
		case "last_error":
			return str(&r.LastError)
		case "compact_trigger":
			return str(&r.CompactTrigger)
		case "agents":
			return s.Strings(&r.Subagents)
		}
		// Unknown, or a field written by a newer hud: encoding/json's.
		return jsonscan.ErrFallback
	})
	if err != nil || !s.End() {
		return nil, false
	}
	return r, true
}

// ScanTimestamp reads the next value of s into v as encoding/json would: a
// string or null, handed to Timestamp's own UnmarshalJSON. Anything else is
// jsonscan.ErrFallback, for the caller to leave to encoding/json. Every
// hand-written decoder of hud's files reads its times through it.
func ScanTimestamp(s *jsonscan.Scanner, v *Timestamp) error {
	raw, err := s.Value()
	if err != nil || raw[0] != '"' && raw[0] != 'n' || v.UnmarshalJSON(raw) != nil {
		return jsonscan.ErrFallback
	}
	return nil
}

// DecodeLockMeta decodes a lock's meta.json as json.Unmarshal would, by
// hand for the form the hook writes (json.Marshal's) and through
// encoding/json for anything else: a hook run on a prompt reads it to
// check its lock holder, in a fresh process.
func DecodeLockMeta(b []byte) (LockMeta, error) {
	if m, ok := decodeLockMetaFast(b); ok {
		return m, nil
	}
	var m LockMeta
	err := json.Unmarshal(b, &m)
	return m, err
}

func decodeLockMetaFast(b []byte) (LockMeta, bool) {
	var m LockMeta
	s := jsonscan.New(b)
	err := s.Object(func(key string) error {
		var err error
		switch key {
		case "pid":
			var n int64
			n, err = s.Int(strconv.IntSize)
			m.PID = int(n)
		case "path":
			err = s.String(&m.Path)
		case "created":
			m.Created, err = s.Int(64)
		case "proc_started":
			m.ProcStarted, err = s.Int(64)
		case "session_id":
			err = s.String(&m.SessionID)
		default:
			err = jsonscan.ErrFallback
		}
		return err
	})
	if err != nil || !s.End() {
		return LockMeta{}, false
	}
	return m, true
}
