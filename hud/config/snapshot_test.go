package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/capacitor-hud/hud/hud/config/settings"
)

// TestHookReadsWhatLoadRead: the hook never parses config.toml; after any
// Load it must see exactly the settings Load returned, whatever the file
// says, including files with problems.
func TestHookReadsWhatLoadRead(t *testing.T) {
	getenv := func(k string) string {
		if k == "VIBE_CHECK_FULL_INTERVAL" {
			return "3600"
		}
		return ""
	}
	for _, text := range []string{
		Template(),
		"",
		"[activity]\nrestore_on_compact = true\ncheckpoint_every = \"5m\"\n",
		"[breaks]\nenabled = false\nquiet_hours = \"22:00-07:30\"\n[work_session]\nstrict = true\n",
		"[breaks]\nmicro_interval = \"-3m\"\nnot_a_key = 1\n",
		"[notifications]\npush_detail = \"subject\"\n",
		"this is not toml = = =",
	} {
		path := filepath.Join(t.TempDir(), "hud", "config.toml")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		want, _ := Load(path, getenv)
		got, err := settings.ForHook(path, getenv)
		if err != nil {
			t.Errorf("%q: hook: %v", text, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: the hook reads\n%+v\nLoad read\n%+v", text, got, want)
		}
	}
}
