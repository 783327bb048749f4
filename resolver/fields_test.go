package resolver

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/jsonfields/fieldstest"
	"github.com/capacitor-hud/hud/internal/store"
)

// stamps sets each Timestamp Fill meets to a time of its own.
func stamps() func(reflect.Value) bool {
	n := 0
	return func(v reflect.Value) bool {
		if v.Type() != reflect.TypeFor[store.Timestamp]() {
			return false
		}
		n++
		v.Set(reflect.ValueOf(store.At(time.Date(2026, 11, 26, 10, n, 0, 123e6, time.UTC))))
		return true
	}
}

// TestRecordFieldsCoverIt: every field of a record, its terminal's and
// its last event's, survives a round trip through its JSON, whichever way
// it is written and read.
func TestRecordFieldsCoverIt(t *testing.T) {
	var r store.Record
	fieldstest.Fill(&r, stamps())
	b, err := store.AppendRecord(nil, &r, "    ", "  ")
	if err != nil {
		t.Fatal(err)
	}
	back, err := store.DecodeRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*back, r) {
		t.Errorf("round trip through\n%s\n got %+v\nwant %+v", b, *back, r)
	}
	var viaJSON store.Record
	if err := json.Unmarshal(b, &viaJSON); err != nil || !reflect.DeepEqual(viaJSON, r) {
		t.Errorf("through encoding/json: %+v, %v", viaJSON, err)
	}
	indented, _ := json.MarshalIndent(&r, "    ", "  ")
	if string(indented) != string(b) {
		t.Errorf("encoding/json writes\n%s\nAppendRecord\n%s", indented, b)
	}
}

// TestRecordKeepsItsKeys: the store's format does not move under a
// change of code: the keys a full record is written with, in their order.
func TestRecordKeepsItsKeys(t *testing.T) {
	var r store.Record
	fieldstest.Fill(&r, stamps())
	b, _ := store.AppendRecord(nil, &r, "", "")
	var keys []string
	d := json.NewDecoder(bytes.NewReader(b))
	d.Token()
	for d.More() {
		k, _ := d.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		d.Decode(&skip)
	}
	want := []string{"session_id", "agent", "state", "cwd", "updated_at", "state_changed_at", "working_on",
		"project_dir", "last_event", "pid", "proc_started", "config_dir", "tools_in_flight", "permission_mode",
		"last_tool", "waiting_for", "waiting_tool", "tmux_pane", "tmux_socket", "term_program", "kitty_window_id",
		"kitty_listen_on", "wezterm_pane", "wezterm_socket", "window_id", "transcript_path", "turn_started_at",
		"last_error", "compact_trigger", "agents"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %q\nwant %q", keys, want)
	}
}

func TestLockMetaFieldsCoverIt(t *testing.T) {
	var m LockMeta
	fieldstest.Fill(&m, nil)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"pid":1,"path":"LockMeta.Path","created":3,"proc_started":4,"session_id":"LockMeta.SessionID"}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	var back LockMeta
	if err := json.Unmarshal(b, &back); err != nil || back != m {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}
