package install

import "testing"

// TestEnvDir: an absolute directory in the variable moves the agent's
// directory; an unset, empty or relative one leaves it below the home.
func TestEnvDir(t *testing.T) {
	cases := []struct {
		value, want string
	}{
		{"", "/home/u/.codex"},
		{"/srv/codex", "/srv/codex"},
		{"rel/codex", "/home/u/.codex"},
		{"~/codex", "/home/u/.codex"},
	}
	for _, c := range cases {
		e := Env{Home: "/home/u", Getenv: func(k string) string {
			if k == "CODEX_HOME" {
				return c.value
			}
			return "/elsewhere"
		}}
		if got := e.Dir("CODEX_HOME", ".codex"); got != c.want {
			t.Errorf("CODEX_HOME=%q: %s, want %s", c.value, got, c.want)
		}
	}
	if got := (Env{Home: "/home/u"}).Dir("XDG_CONFIG_HOME", ".config"); got != "/home/u/.config" {
		t.Errorf("no environment: %s", got)
	}
}
