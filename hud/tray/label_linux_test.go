package tray

import (
	"testing"

	"github.com/capacitor-hud/hud/scripts/desktop/sni"
)

// TestMenuLabel: a label shows in a dbusmenu host as written, underscores
// (paths, snake_case, a model's "_Yes") included.
func TestMenuLabel(t *testing.T) {
	for _, s := range []string{
		"Bash: cat ~/.ssh/id_rsa",
		"      ↳ _Yes",
		"my_project — waiting now — Bash: rm -rf __pycache__",
		"_",
		"plain",
	} {
		if got := sni.ShownLabel(menuLabel(s)); got != s {
			t.Errorf("%q shows as %q", s, got)
		}
	}
}
