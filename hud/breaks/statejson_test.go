package breaks

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/capacitor-hud/hud/internal/reflectfill"
)

// filledState has every field of State set, found by reflection: a field
// added to State and not to the hand-written code fails the tests below.
func filledState(t *testing.T) State {
	t.Helper()
	var s State
	err := reflectfill.Fill(reflect.ValueOf(&s).Elem(), func(v reflect.Value, n int) bool {
		if v.Type() != reflect.TypeFor[Seconds]() {
			return false
		}
		v.Set(reflect.ValueOf(Seconds(1.7e9 + float64(n) + 0.125*float64(n%3))))
		return true
	})
	if err != nil {
		t.Fatalf("State: %v", err)
	}
	return s
}

func stateCases(t *testing.T) map[string]State {
	full := filledState(t)
	noPending := full
	noPending.PendingBreak = nil
	return map[string]State{
		"every field":      full,
		"no pending":       noPending,
		"fresh":            Fresh(t0),
		"zero":             {},
		"whole seconds":    {SessionStart: 1709486400, LastMicro: -2.5, ReminderCount: -1},
		"odd pending type": {PendingBreak: &PendingBreak{Type: "a<\"é\u2028\n"}, SessionStart: 1},
	}
}

// TestStateEncodeIsMarshalIndent: the hand-written encoder writes
// encoding/json's bytes.
func TestStateEncodeIsMarshalIndent(t *testing.T) {
	for name, s := range stateCases(t) {
		want, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendState(nil, s)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("%s: wrote (ok %v)\n%s\nencoding/json writes\n%s", name, ok, got, want)
		}
	}
}

// TestDecodeStateByHand: what Encode writes is read by hand, to what
// encoding/json makes of it.
func TestDecodeStateByHand(t *testing.T) {
	for name, s := range stateCases(t) {
		data := s.Encode()
		got, ok := decodeStateFast(data)
		if !ok {
			t.Errorf("%s: left to encoding/json:\n%s", name, data)
			continue
		}
		if want := jsonDecodeState(t, data); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded\n%+v\nencoding/json decodes\n%+v", name, got, want)
		}
	}
}

// TestDecodeStateOddInput: whatever the input, DecodeState says what it
// said with encoding/json alone.
func TestDecodeStateOddInput(t *testing.T) {
	good := string(Fresh(t0).Encode())
	for _, in := range []string{
		good,
		`{"session_start": 1, "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 0, "last_active": 5, "last_response_end": 6}`,
		`{"session_start": 1, "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 0, "last_active": 5}`,
		`{"session_start": null, "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 0, "last_active": 5, "last_response_end": 6}`,
		`{"Session_Start": 1, "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 0, "last_active": 5, "last_response_end": 6}`,
		`{"session_start": "1", "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 0, "last_active": 5, "last_response_end": 6}`,
		`{"session_start": 1e400, "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 0, "last_active": 5, "last_response_end": 6}`,
		`{"session_start": 1, "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 1.5, "last_active": 5, "last_response_end": 6}`,
		`{"session_start": 1, "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 0, "last_active": 5, "last_response_end": 6, "pending_break": {"type": "micro"}, "pending_break": {"fired_at": 7}}`,
		`{"session_start": 1, "last_micro": 2, "last_full": 3, "last_hydration": 4, "reminder_count": 0, "last_active": 5, "last_response_end": 6, "extra": [1]}`,
		`[]`,
		``,
	} {
		got, err := DecodeState([]byte(in))
		want, wantErr := referenceDecodeState([]byte(in))
		if (err != nil) != (wantErr != nil) || err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %+v, %v; encoding/json alone: %+v, %v", in, got, err, want, wantErr)
		}
	}
}

// referenceDecodeState is DecodeState with encoding/json alone.
func referenceDecodeState(data []byte) (State, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return State{}, err
	}
	for _, k := range RequiredKeys {
		if v, ok := keys[k]; !ok || bytes.Equal(v, []byte("null")) {
			return State{}, errMissing
		}
	}
	var s State
	err := json.Unmarshal(data, &s)
	return s, err
}

var errMissing = errors.New("missing key")

func jsonDecodeState(t *testing.T, data []byte) State {
	t.Helper()
	s, err := referenceDecodeState(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
