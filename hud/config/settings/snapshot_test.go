package settings

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestForHook(t *testing.T) {
	edited := Default()
	edited.Activity.RestoreOnCompact = true
	edited.Breaks.MicroInterval = 7 * time.Minute
	const text = "[activity]\nrestore_on_compact = true\n"

	for _, tc := range []struct {
		name     string
		config   string // "" : no config.toml
		snapshot func(path string) error
		want     Config
		wantErr  error
	}{
		{name: "no settings file", want: Default()},
		{name: "no copy yet", config: text, want: Default(), wantErr: ErrStale},
		{name: "current copy", config: text,
			snapshot: func(p string) error { return WriteSnapshot(p, []byte(text), edited) },
			want:     edited},
		{name: "file edited since", config: text + "# later\n",
			snapshot: func(p string) error { return WriteSnapshot(p, []byte(text), edited) },
			want:     edited, wantErr: ErrStale},
		{name: "copy of another version", config: text,
			snapshot: func(p string) error {
				return os.WriteFile(SnapshotPath(p), []byte(`{"version":99,"source":"x","config":{}}`), 0o600)
			},
			want: Default(), wantErr: ErrStale},
		{name: "copy not JSON", config: text,
			snapshot: func(p string) error { return os.WriteFile(SnapshotPath(p), []byte("{"), 0o600) },
			want:     Default(), wantErr: ErrStale},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hud", "config.toml")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if tc.config != "" {
				if err := os.WriteFile(path, []byte(tc.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tc.snapshot != nil {
				if err := tc.snapshot(path); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ForHook(path, nil)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Errorf("error = %v, want %v", err, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("settings = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestForHookAppliesEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	getenv := func(k string) string {
		if k == "VIBE_CHECK_MICRO_INTERVAL" {
			return "60"
		}
		return ""
	}
	got, err := ForHook(path, getenv)
	if err != nil || got.Breaks.MicroInterval != time.Minute {
		t.Errorf("ForHook = %v, %v; want the override, 1m", got.Breaks.MicroInterval, err)
	}
}

// Reading the settings again must not rewrite the copy: the tray reads
// them on every change of the directory.
func TestWriteSnapshotOnlyWhenChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := WriteSnapshot(path, []byte("a"), Default()); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(SnapshotPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteSnapshot(path, []byte("a"), Default()); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(SnapshotPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("the same settings were written again")
	}
	if before.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", before.Mode().Perm())
	}
}

// TestSnapshotLeavesOutThePushURL: the push URL may hold a token and the
// hook never needs it, so its copy leaves it out and reads back the
// default, while every other setting survives the round trip.
func TestSnapshotLeavesOutThePushURL(t *testing.T) {
	cfg := Default()
	cfg.Notifications.PushURL = "https://ntfy.example/secret-topic"
	cfg.Breaks.Enabled = !cfg.Breaks.Enabled
	data, err := json.Marshal(snapshot{Version: snapshotVersion, Source: "abc", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "secret-topic") {
		t.Errorf("the hook's copy holds the push URL: %s", data)
	}
	snap, err := readSnapshot(data)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Notifications.PushURL = Default().Notifications.PushURL
	if snap.Config != cfg || snap.Version != snapshotVersion || snap.Source != "abc" {
		t.Errorf("read %+v\nwant %+v", snap, cfg)
	}
}
