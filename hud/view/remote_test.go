package view

import (
	"testing"
	"time"
)

func TestRemoteStatus(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 42, 0, 0, time.Local)
	for _, tt := range []struct {
		r    Remote
		want string
	}{
		{Remote{Host: "devbox", Up: true, Since: now}, "devbox: connected"},
		{Remote{Host: "devbox", Connecting: true}, "devbox: connecting…"},
		{Remote{Host: "devbox", Since: now.Add(-time.Hour), Detail: "Connection refused"}, "devbox: unreachable since 09:42 (Connection refused)"},
		{Remote{Host: "devbox", Since: now.Add(-26 * time.Hour)}, "devbox: unreachable since " + now.Add(-26*time.Hour).Format("Mon") + " 08:42"},
		{Remote{Host: "devbox", Since: now.AddDate(0, -1, 0)}, "devbox: unreachable since 2026-10-23 10:42"},
		{Remote{Host: "devbox", Since: now, Problem: "hud not found on the remote — install it there"}, "devbox: hud not found on the remote — install it there"},
		{Remote{Host: "dev\x1b[2Jbox", Since: now, Detail: "a\nb\x07"}, "devbox: unreachable since 10:42 (a b)"},
	} {
		if got := tt.r.Status(now); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.r, got, tt.want)
		}
	}
	if got := WithHost("devbox", "api"); got != "devbox · api" {
		t.Errorf("WithHost: %q", got)
	}
	s := Session{Key: "k", ProjectDir: "/srv/api", Host: "devbox"}
	if got := s.Name(); got != "devbox · api" {
		t.Errorf("Name: %q", got)
	}
}
