package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/internal/reflectfill"
	"github.com/capacitor-hud/hud/resolver"
)

// jsonDecodeEvent is DecodeEvent with encoding/json alone, as it was
// before the hand-written decoder: the reference that decoder is held to.
func jsonDecodeEvent(b []byte) (*Event, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, errors.New("not an object")
	}
	var ev Event
	if err := json.Unmarshal(b, &ev); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) || typeErr.Field == "" {
			return nil, err
		}
	}
	if err := resolver.CheckSessionID(ev.SessionID); err != nil {
		return nil, err
	}
	if ev.HookEventName == "" {
		return nil, errors.New("no hook_event_name")
	}
	return &ev, nil
}

// TestEventFieldsAreTheTags keeps the decoder's list of keys in step with
// Event and BackgroundTask.
func TestEventFieldsAreTheTags(t *testing.T) {
	for _, c := range []struct {
		typ  reflect.Type
		list []string
	}{{reflect.TypeFor[Event](), eventFields}, {reflect.TypeFor[BackgroundTask](), backgroundTaskFields}} {
		var tags []string
		for i := range c.typ.NumField() {
			// A field tagged "-" is set by the hook, never decoded.
			if tag := strings.Split(c.typ.Field(i).Tag.Get("json"), ",")[0]; tag != "-" {
				tags = append(tags, tag)
			}
		}
		if !slices.Equal(tags, c.list) {
			t.Errorf("%s: json tags %q, the decoder knows %q", c.typ.Name(), tags, c.list)
		}
	}
}

// TestDecodeEventFastEveryField fills every field of Event by reflection:
// a field added to Event and not to the decoder fails here.
func TestDecodeEventFastEveryField(t *testing.T) {
	var ev Event
	err := reflectfill.Fill(reflect.ValueOf(&ev).Elem(), func(v reflect.Value, n int) bool {
		if v.Type() != reflect.TypeFor[json.RawMessage]() {
			return false
		}
		v.SetBytes([]byte(fmt.Sprintf(`{"n": %d, "list": [1, -2.5e3, "x\"y", true, null, {}]}`, n)))
		return true
	})
	if err != nil {
		t.Fatalf("Event: %v", err)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := decodeEventFast(b)
	if !ok {
		t.Fatalf("left to encoding/json:\n%s", b)
	}
	var want Event
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("decoded\n%+v\nencoding/json decodes\n%+v", got, &want)
	}
}

// TestDecodeEventFastFixtures: every recorded event is read by hand, to
// what encoding/json makes of it.
func TestDecodeEventFastFixtures(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "scripts", "desktop", "testdata", "events", "*.json"))
	for _, name := range append(names, more...) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.TrimSpace(string(b)))
		got, ok := decodeEventFast(b)
		if !ok {
			t.Errorf("%s: left to encoding/json", name)
			continue
		}
		want, err := jsonDecodeEvent(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded\n%+v\nencoding/json decodes\n%+v", name, got, want)
		}
	}
}

// oddEvents are inputs the hand-written decoder may leave to encoding/json;
// DecodeEvent must come out as encoding/json alone would.
var oddEvents = []string{
	`{"session_id":"s","hook_event_name":"Stop","background_tasks":null}`,
	`{"session_id":"s","hook_event_name":"Stop","background_tasks":[]}`,
	`{"session_id":"s","hook_event_name":"Stop","background_tasks":[{"id":"a","type":"subagent","status":"running","x":{}}]}`,
	`{"session_id":"s","hook_event_name":"Stop","background_tasks":[{"id":"a"}],"background_tasks":[{"type":"b"}]}`,
	`{"session_id":"s","hook_event_name":"Stop","background_tasks":[null]}`,
	`{"session_id":"s","hook_event_name":"Stop","background_tasks":[{"ID":"a"}]}`,
	`{"session_id":"s","hook_event_name":"Stop","Session_ID":"t"}`,
	`{"session_id":"s","hook_event_name":"Stop","ſession_id":"t"}`,
	`{"session_id":"s","hook_event_name":"Stop","is_interrupt":"yes"}`,
	`{"session_id":"s","hook_event_name":"Stop","message":{"text":"x"}}`,
	`{"session_id":"s","hook_event_name":"Stop","tool_input":null,"error":"e","tool_response":[1, 2 ,3]}`,
	`{"session_id":"s","hook_event_name":"Stop","new":[1,{"a":null},-0.5E+3,"\ud83d\ude00"]}`,
	`{"session_id":"s","hook_event_name":"Stop","new":01}`,
	`{"session_id":"s","hook_event_name":"Stop","new":1.}`,
	`{"session_id":"s","hook_event_name":"Stop","new":"\ud83d"}`,
	"{\"session_id\":\"s\",\"hook_event_name\":\"Stop\",\"new\":\"\xff\"}",
	`{"session_id":"s","hook_event_name":"Stop","prompt":"a\u0000b\/"}`,
	`{"session_id":"s","hook_event_name":"Stop","new":[}`,
	`{"session_id":"s","hook_event_name":"Stop",}`,
	`{"session_id":"s","hook_event_name":"Stop"}{}`,
	`{"session_id":"s","hook_event_name":"Stop","session_id":"t"}`,
	`{"session_id":"s","hook_event_name":"Stop","new":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`,
}

func TestDecodeEventOddInput(t *testing.T) {
	for _, in := range oddEvents {
		checkDecodeEvent(t, []byte(in))
	}
}

func checkDecodeEvent(t *testing.T, in []byte) {
	t.Helper()
	want, wantErr := jsonDecodeEvent(in)
	got, err := DecodeEvent(in)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", in, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decoded\n%+v\nencoding/json decodes\n%+v", in, got, want)
	}
}
