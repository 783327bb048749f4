package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetLine(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"in place, comment and others kept",
			"# mine\n[answer]\n# why\nenabled = false # old\nwait = \"2m\"\n[breaks]\nenabled = true\n",
			"# mine\n[answer]\n# why\nenabled = true\nwait = \"2m\"\n[breaks]\nenabled = true\n"},
		{"the same key in another table is not ours",
			"[breaks]\nenabled = false\n[answer]\nwait = \"2m\"\n",
			"[breaks]\nenabled = false\n[answer]\nenabled = true\nwait = \"2m\"\n"},
		{"no table: added at the end",
			"[breaks]\nenabled = false",
			"[breaks]\nenabled = false\n\n[answer]\nenabled = true\n"},
		{"a commented-out key is not the key",
			"[answer]\n# enabled = false\n",
			"[answer]\nenabled = true\n# enabled = false\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := setLine(tc.in, "answer", "enabled", "enabled = true"); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSetBool(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hud", "config.toml")
	if err := SetBool(path, "answer", "enabled", true); err != nil {
		t.Fatal(err)
	}
	cfg, problems := Load(path, nil)
	if len(problems) > 0 || !cfg.Answer.Enabled {
		t.Fatalf("after SetBool on a new file: enabled=%v, problems %v", cfg.Answer.Enabled, problems)
	}
	if err := SetBool(path, "answer", "enabled", false); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if cfg, _ := Load(path, nil); cfg.Answer.Enabled || strings.Count(string(data), "[answer]") != 1 {
		t.Fatalf("after switching off: enabled=%v\n%s", cfg.Answer.Enabled, data)
	}
	if err := SetBool(path, "answer", "wait", true); err == nil {
		t.Error("SetBool accepted a duration key")
	}
}
