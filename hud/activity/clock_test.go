package activity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/reflectfill"
	"github.com/capacitor-hud/hud/resolver"
)

// clockOf is the part of a Session the checkpoint clock is.
func clockOf(s Session) [3]any { return [3]any{s.StartedAt, s.LastCheckpoint, s.CheckpointEvery} }

// agreeWithJSON fails unless decodeClock gives encoding/json's answer for
// b, and returns whether the fast path took it.
func agreeWithJSON(t *testing.T, b []byte) (fast bool) {
	t.Helper()
	var full Session
	jsonErr := json.Unmarshal(b, &full)
	got, err := decodeClock(b)
	if (err != nil) != (jsonErr != nil) {
		t.Fatalf("%s: error %v, encoding/json's %v", b, err, jsonErr)
	}
	if err == nil && !reflect.DeepEqual(clockOf(got), clockOf(full)) {
		t.Fatalf("%s: clock %v, encoding/json's %v", b, clockOf(got), clockOf(full))
	}
	_, fast = decodeClockFast(b)
	if fast && jsonErr != nil {
		t.Fatalf("%s: the fast path took what encoding/json rejects (%v)", b, jsonErr)
	}
	return fast
}

func TestDecodeClock(t *testing.T) {
	// Every field of a Session set, by reflection: a file as the hook and
	// the worker write it, whatever fields Session gains.
	var filled Session
	err := reflectfill.Fill(reflect.ValueOf(&filled).Elem(), func(v reflect.Value, n int) bool {
		if v.Type() != reflect.TypeFor[time.Time]() {
			return false
		}
		v.Set(reflect.ValueOf(time.Unix(1_790_000_000+int64(n), 0).UTC()))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	filled.StartedAt = time.Date(2026, 11, 23, 9, 0, 0, 123, time.UTC)
	filled.LastCheckpoint = time.Date(2026, 11, 23, 9, 30, 0, 0, time.FixedZone("", 3600))
	filled.CheckpointEvery = 20 * time.Minute
	written, err := json.MarshalIndent(filled, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		in   string
		fast bool
	}{
		{"as written", string(written), true},
		{"no clock", `{"session_id":"s","todos":[{"content":"x","status":"pending"}]}`, true},
		{"nulls", `{"started_at":null,"last_checkpoint":null,"checkpoint_every":null}`, true},
		{"repeated key", `{"checkpoint_every":1,"checkpoint_every":2}`, true},
		{"case-folded key", `{"Checkpoint_Every":5}`, false},
		{"float duration", `{"checkpoint_every":1.5}`, false},
		{"bad time", `{"started_at":"yesterday"}`, false},
		{"number time", `{"started_at":5}`, false},
		{"not an object", `[]`, false},
		{"null file", `null`, false},
		{"trailing garbage", `{} x`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if fast := agreeWithJSON(t, []byte(c.in)); fast != c.fast {
				t.Errorf("fast path took it: %v, want %v", fast, c.fast)
			}
		})
	}
}

func FuzzDecodeClock(f *testing.F) {
	f.Add([]byte(`{"started_at":"2026-11-23T09:00:00Z","checkpoint_every":1200000000000,"git":{"branch":"main"}}`))
	f.Add([]byte(`{"last_checkpoint":"2026-11-23T09:00:00.5+01:00","Started_At":null}`))
	f.Fuzz(func(t *testing.T, b []byte) { agreeWithJSON(t, b) })
}

func TestCheckpointDue(t *testing.T) {
	l := resolver.Layout{Home: t.TempDir()}
	const id = "5d3c1f4e-0000-4000-8000-000000000001"
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	if due, err := CheckpointDue(l, id, start.Add(time.Hour)); err != nil || due {
		t.Fatalf("no activity file: due %v, %v; want false, nil", due, err)
	}
	write := func(s Session) {
		t.Helper()
		path, _ := Path(l, id)
		b, _ := json.Marshal(s)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		s    Session
		at   time.Duration // after start
		want bool
	}{
		{"off", Session{StartedAt: start}, 10 * time.Hour, false},
		{"not yet", Session{StartedAt: start, CheckpointEvery: time.Hour}, 59 * time.Minute, false},
		{"due from the start", Session{StartedAt: start, CheckpointEvery: time.Hour}, time.Hour, true},
		{"due from the last", Session{StartedAt: start, LastCheckpoint: start.Add(time.Hour), CheckpointEvery: time.Hour}, 90 * time.Minute, false},
	} {
		write(c.s)
		if due, err := CheckpointDue(l, id, start.Add(c.at)); err != nil || due != c.want {
			t.Errorf("%s: due %v, %v; want %v", c.name, due, err, c.want)
		}
	}
	path, _ := Path(l, id)
	os.WriteFile(path, []byte("{"), 0o600)
	if _, err := CheckpointDue(l, id, start); err == nil {
		t.Error("a torn file: no error")
	}
}
