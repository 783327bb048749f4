package breaks

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/jsonfields/fieldstest"
)

var t0 = time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)

func TestFreshStateHasExactlyTheSeedSchema(t *testing.T) {
	data := Fresh(t0).Encode()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	want := []string{"session_start", "last_micro", "last_full", "last_hydration", "reminder_count",
		"last_active", "last_response_end", "pending_break", "tip_index", "last_reminder_fired_at"}
	if len(m) != len(want) {
		t.Errorf("keys = %d, want %d: %s", len(m), len(want), data)
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
	if m["pending_break"] != nil {
		t.Errorf("pending_break = %v, want null", m["pending_break"])
	}
	tips, _ := m["tip_index"].(map[string]any)
	if !reflect.DeepEqual(tips, map[string]any{"micro_break": 0.0, "full_break": 0.0, "hydration": 0.0}) {
		t.Errorf("tip_index = %v", m["tip_index"])
	}
	// Key order follows Vibe Check's, and floats are written the Python way.
	if !strings.HasPrefix(string(data), "{\n  \"session_start\": 1772532000.0,\n  \"last_micro\"") {
		t.Errorf("encoding:\n%s", data)
	}
	if !strings.Contains(string(data), `"last_reminder_fired_at": 0`) {
		t.Errorf("last_reminder_fired_at not 0:\n%s", data)
	}
}

func TestDecodeSeedExample(t *testing.T) {
	seed := `{
  "session_start": 1709486400.0, "last_micro": 1709486400.0, "last_full": 1709486400.0,
  "last_hydration": 1709486400.0, "reminder_count": 0, "last_active": 1709486400.0,
  "last_response_end": 1709486400.0, "pending_break": null,
  "tip_index": {"micro_break": 0, "full_break": 0, "hydration": 0},
  "last_reminder_fired_at": 0}`
	s, err := DecodeState([]byte(seed))
	if err != nil {
		t.Fatal(err)
	}
	if s.LastMicro.Time() != time.Unix(1709486400, 0) {
		t.Errorf("last_micro = %v", s.LastMicro.Time())
	}
	// Round trip.
	again, err := DecodeState(s.Encode())
	if err != nil || !reflect.DeepEqual(again, s) {
		t.Errorf("round trip: %+v, %v", again, err)
	}
}

func TestDecodeRejectsCorruptState(t *testing.T) {
	full := map[string]any{}
	json.Unmarshal(Fresh(t0).Encode(), &full)
	for _, key := range RequiredKeys {
		m := map[string]any{}
		for k, v := range full {
			if k != key {
				m[k] = v
			}
		}
		data, _ := json.Marshal(m)
		if _, err := DecodeState(data); err == nil {
			t.Errorf("without %s: no error", key)
		}
	}
	for _, bad := range []string{
		``, `{`, `[]`, `null`, `{"session_start": "yesterday"}`,
		strings.Replace(string(Fresh(t0).Encode()), `"reminder_count": 0`, `"reminder_count": "zero"`, 1),
		strings.Replace(string(Fresh(t0).Encode()), `"last_active": 1772532000.0`, `"last_active": null`, 1),
	} {
		if _, err := DecodeState([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	// Optional keys may be missing, as in older Vibe Check files.
	m := map[string]any{}
	for _, k := range RequiredKeys {
		m[k] = full[k]
	}
	data, _ := json.Marshal(m)
	if _, err := DecodeState(data); err != nil {
		t.Errorf("only required keys: %v", err)
	}
}

func TestSecondsKeepsSubsecondPrecision(t *testing.T) {
	at := time.Unix(1772532000, 123456000)
	if got := SecondsOf(at).Time(); got.Sub(at).Abs() > time.Microsecond {
		t.Errorf("round trip %v → %v", at, got)
	}
	if !SecondsOf(time.Time{}).Time().IsZero() {
		t.Error("zero time does not round-trip")
	}
}

// TestStateFieldsCoverIt: every field of the state, its pending break's
// and its tip counters', survives a round trip through the file.
func TestStateFieldsCoverIt(t *testing.T) {
	var s State
	n := 0
	fieldstest.Fill(&s, func(v reflect.Value) bool {
		if v.Type() != reflect.TypeFor[Seconds]() {
			return false
		}
		n++
		v.SetFloat(1772532000.25 + float64(n))
		return true
	})
	back, err := DecodeState(s.Encode())
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Errorf("round trip through\n%s\n got %+v, %v\nwant %+v", s.Encode(), back, err, s)
	}
}
