package activity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
)

func TestCheckpointDue(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
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
