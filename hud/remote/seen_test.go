package remote

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/capacitor-hud/hud/hud/view"
)

func TestSeen(t *testing.T) {
	path := filepath.Join(t.TempDir(), SeenName)
	if r, s := ReadSeen(path, now); r != nil || s != nil {
		t.Fatalf("no file: %v %v", r, s)
	}
	remotes := []view.Remote{{Host: "devbox", Up: true, Since: now}, {Host: "vm", Since: now, Detail: "Connection refused"}}
	sessions, err := Decode([]byte(line(waiting)), "devbox", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteSeen(path, remotes, sessions, now); err != nil {
		t.Fatal(err)
	}
	gotR, gotS := ReadSeen(path, now)
	if len(gotR) != 2 || gotR[0] != remotes[0] || gotR[1].Detail != "Connection refused" || gotR[1].Up {
		t.Errorf("remotes %+v", gotR)
	}
	if len(gotS) != 1 || gotS[0] != sessions[0] {
		t.Errorf("sessions %+v\nwant %+v", gotS, sessions)
	}

	// A session of a machine the file does not list, or another version,
	// is not shown.
	for _, doc := range []string{
		`{"version":1,"sessions":[{"session_id":"x","state":"waiting","host":"elsewhere"}],"remotes":[{"host":"devbox"}]}`,
		`{"version":2,"sessions":[{"session_id":"x","state":"waiting","host":"devbox"}],"remotes":[{"host":"devbox"}]}`,
		`{"version":1,"sessions":[{"session_id":"x","state":"waiting","host":""}],"remotes":[{"host":"devbox"}]}`,
	} {
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, s := ReadSeen(path, now); len(s) != 0 {
			t.Errorf("%s: %+v", doc, s)
		}
	}
}
