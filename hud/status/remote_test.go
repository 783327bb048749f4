package status

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// TestRemotesInEveryFormat: a remote machine's session is named with its
// host in every format, after the local sessions that need the person
// more; a machine that cannot be reached is said, never silent.
func TestRemotesInEveryFormat(t *testing.T) {
	at := time.Date(2026, 11, 23, 10, 42, 0, 0, time.Local)
	local := resolver.Session{SessionID: "l1", State: store.StateWorking, CWD: "/home/me/web", Since: at.Add(-time.Minute),
		Record: &store.Record{SessionID: "l1", CWD: "/home/me/web"}}
	v := New([]resolver.Session{local}, at)
	v.AddRemotes([]view.Remote{
		{Host: "devbox", Up: true, Since: at},
		{Host: "vm", Since: at.Add(-10 * time.Minute), Detail: "Connection refused"},
		{Host: "new", Connecting: true},
	}, []view.Session{{Key: "remote:devbox:r1", SessionID: "r1", State: store.StateWaiting, ProjectDir: "/srv/api",
		Since: at.Add(-2 * time.Minute), WaitingFor: "Bash: npm test", Host: "devbox"}})

	if v.State != store.StateWaiting || v.Sessions[0].Host != "devbox" {
		t.Fatalf("state %s, first %+v: the waiting remote session comes first", v.State, v.Sessions[0])
	}
	for _, tt := range []struct {
		render Render
		want   []string
	}{
		{WriteText, []string{"devbox · api  waiting 2m", "web           working 1m", "vm: unreachable since 10:32 (Connection refused)"}},
		{WriteTmux, []string{"◆ devbox · api waiting", "✕ vm unreachable"}},
		{WriteWaybar, []string{`devbox · api: waiting — Bash: npm test`, `vm: unreachable since 10:32`}},
	} {
		var b bytes.Buffer
		if err := tt.render(&b, v); err != nil {
			t.Fatal(err)
		}
		for _, want := range tt.want {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%q lacks %q", b.String(), want)
			}
		}
		if strings.Contains(b.String(), "new") {
			t.Errorf("%q: a machine still connecting is no alarm", b.String())
		}
	}

	var b bytes.Buffer
	if err := WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	var doc JSON
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != Version || doc.Sessions[0].Host != "devbox" || doc.Sessions[1].Host != "" ||
		len(doc.Remotes) != 3 || !doc.Remotes[0].Reachable || doc.Remotes[1].Reachable || doc.Remotes[1].Detail != "Connection refused" || !doc.Remotes[2].Connecting {
		t.Errorf("JSON: %s", b.String())
	}
}
