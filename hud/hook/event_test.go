package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/internal/jsonfields"
	"github.com/capacitor-hud/hud/internal/jsonfields/fieldstest"
	"github.com/capacitor-hud/hud/internal/store"
)

func TestDecodeEvent(t *testing.T) {
	good := `{"session_id":"7261fbe8-c132-4197-8154-4b9c1e3e818d","hook_event_name":"Stop","cwd":"/p"}`
	cases := []struct {
		name, input string
		wantErr     string // "" = decodes
	}{
		{"good", good, ""},
		{"surrounding space", "\n " + good + "\n", ""},
		{"empty", "", "empty input"},
		{"space only", " \n\t", "empty input"},
		{"not JSON", "hello", "not a JSON object"},
		{"array", `[` + good + `]`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"truncated", good[:len(good)-1], "decoding event"},
		{"trailing data", good + `{}`, "decoding event"},
		{"no session_id", `{"hook_event_name":"Stop"}`, "no session_id"},
		{"session_id not a string", `{"session_id":5,"hook_event_name":"Stop"}`, "no session_id"},
		{"path in session_id", `{"session_id":"../../etc","hook_event_name":"Stop"}`, "not allowed"},
		{"dot dot", `{"session_id":"..","hook_event_name":"Stop"}`, "session_id"},
		{"slash", `{"session_id":"a/b","hook_event_name":"Stop"}`, "not allowed"},
		{"NUL", `{"session_id":"a\u0000b","hook_event_name":"Stop"}`, "not allowed"},
		{"long session_id", `{"session_id":"` + strings.Repeat("a", 129) + `","hook_event_name":"Stop"}`, "longer than"},
		{"no event name", `{"session_id":"s"}`, "no hook_event_name"},
		// A newer Claude Code changing a field the HUD barely uses costs
		// that field, not the event.
		{"field of another type", `{"session_id":"s","hook_event_name":"Notification","message":{"text":"x"}}`, ""},
		{"unknown fields", `{"session_id":"s","hook_event_name":"Whatever","new":[1,{"a":null}]}`, ""},
	}
	for _, c := range cases {
		ev, err := DecodeEvent([]byte(c.input))
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wantErr != "" && err == nil:
			t.Errorf("%s: decoded %+v, want an error", c.name, ev)
		case c.wantErr != "" && !strings.Contains(err.Error(), c.wantErr):
			t.Errorf("%s: error %q, want it to say %q", c.name, err, c.wantErr)
		}
	}
}

func TestDecodeEveryFixture(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	if len(names) != 31 {
		t.Fatalf("%d fixtures, want 31", len(names))
	}
	for _, name := range names {
		ev := readFixture(t, filepath.Base(name))
		want := strings.SplitN(strings.TrimSuffix(filepath.Base(name), ".json"), "-", 3)[1]
		if ev.HookEventName != want {
			t.Errorf("%s: event %q", name, ev.HookEventName)
		}
	}
}

// FuzzDecodeEvent: whatever arrives on stdin, the decoder returns an
// event it vouches for or an error, and never panics. (`make fuzz`.)
func FuzzDecodeEvent(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{"", "{}", "[]", "null", `{"session_id":"../x"}`, `{"session_id":"s","hook_event_name":"Stop","error":{"a":1}}`} {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"session_id":"s","hook_event_name":"Stop","background_tasks":[{"id":"a"}],"background_tasks":[{"type":"b"}]}`,
		`{"session_id":"s","hook_event_name":"Stop","Session_ID":"t","is_interrupt":"yes","message":{"text":"x"}}`,
		`{"session_id":"s","hook_event_name":"Stop","new":[1,{"a":null},-0.5E+3,"\ud83d"]}`,
		`{"session_id":"s","hook_event_name":"Stop"}{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, err := DecodeEvent(b)
		if err != nil {
			if ev != nil {
				t.Fatal("an event with an error")
			}
			return
		}
		if store.CheckSessionID(ev.SessionID) != nil || ev.HookEventName == "" {
			t.Fatalf("accepted %+v", ev)
		}
		// Whatever decoded, the state machine and the record's texts
		// take it.
		r := Transition(nil, ev, t0)
		if ev.HookEventName != EventSessionEnd && (r == nil || !r.State.Valid()) {
			t.Fatalf("Transition(%+v) = %+v", ev, r)
		}
	})
}

// TestEventFieldsCoverIt: every field of an event but Agent, which the
// hook sets itself, is read from the payload.
func TestEventFieldsCoverIt(t *testing.T) {
	var ev Event
	fieldstest.Fill(&ev, nil)
	ev.Agent = ""
	b, err := jsonfields.Append(nil, "", "", ev.fields()...)
	if err != nil {
		t.Fatal(err)
	}
	ev.SessionID = "s-1" // a valid id, which DecodeEvent requires
	b = bytes.Replace(b, []byte(`"Event.SessionID"`), []byte(`"s-1"`), 1)
	back, err := DecodeEvent(b)
	if err != nil || !reflect.DeepEqual(*back, ev) {
		t.Errorf("from\n%s\n got %+v, %v\nwant %+v", b, back, err, ev)
	}
}
