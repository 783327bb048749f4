package store

import (
	"fmt"

	"github.com/capacitor-hud/hud/internal/jsonfields"
)

// A record is read and written through this list, not encoding/json's
// reflection: the hook decodes and encodes one on every event, in a fresh
// process each time (docs/performance.md).

// fields lists a record's members, in the order they are written.
func (r *Record) fields() []jsonfields.Field {
	f := []jsonfields.Field{
		jsonfields.String("session_id", &r.SessionID),
		jsonfields.String("agent", &r.Agent).OmitEmpty(),
		jsonfields.String("state", &r.State),
		jsonfields.String("cwd", &r.CWD),
		jsonfields.Value("updated_at", &r.UpdatedAt),
		jsonfields.Value("state_changed_at", &r.StateChangedAt),
		jsonfields.String("working_on", &r.WorkingOn).OmitEmpty(),
		jsonfields.String("project_dir", &r.ProjectDir).OmitEmpty(),
		jsonfields.Pointer("last_event", &r.LastEvent, (*LastEvent).fields).OmitEmpty(),
		jsonfields.Int("pid", &r.PID).OmitEmpty(),
		jsonfields.Int("proc_started", &r.ProcStarted).OmitEmpty(),
		jsonfields.String("config_dir", &r.ConfigDir).OmitEmpty(),
		jsonfields.Int("tools_in_flight", &r.ToolsInFlight).OmitEmpty(),
		jsonfields.String("permission_mode", &r.PermissionMode).OmitEmpty(),
		jsonfields.String("last_tool", &r.LastTool).OmitEmpty(),
		jsonfields.String("waiting_for", &r.WaitingFor).OmitEmpty(),
		jsonfields.String("waiting_tool", &r.WaitingTool).OmitEmpty(),
	}
	f = append(f, r.Terminal.Fields()...)
	return append(f,
		jsonfields.String("transcript_path", &r.TranscriptPath).OmitEmpty(),
		jsonfields.Value("turn_started_at", &r.TurnStartedAt).OmitEmpty(),
		jsonfields.String("last_error", &r.LastError).OmitEmpty(),
		jsonfields.String("compact_trigger", &r.CompactTrigger).OmitEmpty(),
		// "agents" predates the word subagent.
		jsonfields.Strings("agents", &r.Subagents).OmitEmpty(),
	)
}

func (e *LastEvent) fields() []jsonfields.Field {
	return []jsonfields.Field{
		jsonfields.String("event", &e.Event),
		jsonfields.Value("timestamp", &e.Timestamp),
	}
}

// DecodeRecord parses one record. A member of the wrong type is an error,
// as it is to encoding/json.
func DecodeRecord(b []byte) (*Record, error) {
	r := &Record{}
	if err := jsonfields.Decode(b, r.fields()...); err != nil {
		return nil, fmt.Errorf("decoding record: %w", err)
	}
	return r, nil
}

// AppendRecord appends r as JSON to dst, laid out as json.MarshalIndent(r,
// prefix, indent) lays it out (compact without an indent).
func AppendRecord(dst []byte, r *Record, prefix, indent string) ([]byte, error) {
	return jsonfields.Append(dst, prefix, indent, r.fields()...)
}

// MarshalJSON writes the record for encoding/json: the same JSON as
// AppendRecord.
func (r *Record) MarshalJSON() ([]byte, error) { return AppendRecord(nil, r, "", "") }

// UnmarshalJSON reads the record for encoding/json, as DecodeRecord does.
func (r *Record) UnmarshalJSON(b []byte) error {
	*r = Record{}
	return jsonfields.Decode(b, r.fields()...)
}
