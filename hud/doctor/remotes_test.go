package doctor

import (
	"testing"

	"github.com/capacitor-hud/hud/hud/view"
)

func TestCheckRemotes(t *testing.T) {
	env := &Env{
		Remotes: []view.Remote{
			{Host: "devbox", Up: true},
			{Host: "vm", Detail: "Connection refused"},
			{Host: "old", Problem: "the hud there is too old for remotes (its status stream has no version) — update it there"},
		},
		RemoteSessions: []view.Session{{Host: "devbox"}, {Host: "devbox"}, {Host: ""}},
	}
	got := checkRemotes(env)
	want := []Finding{
		{Severity: OK, Message: "devbox: connected, 2 live session(s)"},
		{Severity: Warn, Message: "vm: unreachable (Connection refused)",
			Fix: "ssh to it once yourself ('hud remote list' shows its destination): hud's ssh runs with BatchMode=yes, so it cannot ask for a password or accept a host key"},
		{Severity: Warn, Message: "old: the hud there is too old for remotes (its status stream has no version)", Fix: "update it there"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if got := checkRemotes(&Env{}); len(got) != 0 {
		t.Errorf("no remotes: %+v", got)
	}
}
