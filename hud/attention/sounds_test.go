package attention

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlayer(t *testing.T) {
	theme := t.TempDir()
	stereo := filepath.Join(theme, "sounds", "freedesktop", "stereo")
	if err := os.MkdirAll(stereo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stereo, SoundDone+".oga"), []byte("ogg"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Each "player" is a program that succeeds whatever it is given.
	const ok = "/bin/true"
	if _, err := os.Stat(ok); err != nil {
		t.Skip("no /bin/true")
	}
	installed := func(names ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			for _, n := range names {
				if n == name {
					return ok, nil
				}
			}
			return "", errors.New("not found")
		}
	}
	tests := []struct {
		name      string
		goos      string
		lookPath  func(string) (string, error)
		want      string // the description; "" for no player
		playsDone bool
		missing   bool // the waiting sound has no file
	}{
		{"canberra follows the theme", "linux", installed("canberra-gtk-play", "paplay"), "canberra-gtk-play", true, false},
		{"paplay plays the theme's file", "linux", installed("paplay"), "paplay with the freedesktop sound theme", true, true},
		{"pw-play too", "linux", installed("pw-play"), "pw-play", true, true},
		{"nothing to play with", "linux", installed(), "", false, false},
		{"macOS", "darwin", installed("afplay"), "afplay", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			play, desc := Player(tt.goos, tt.lookPath, []string{filepath.Join(theme, "none"), theme})
			if !strings.HasPrefix(desc, tt.want) || (tt.want == "") != (play == nil) {
				t.Fatalf("player %q (nil: %v), want %q", desc, play == nil, tt.want)
			}
			if play == nil {
				return
			}
			if err := play(context.Background(), SoundDone); (err == nil) != tt.playsDone {
				t.Errorf("playing %s: %v", SoundDone, err)
			}
			err := play(context.Background(), SoundWaiting)
			if tt.missing != (err != nil) {
				t.Errorf("playing %s without its file: %v", SoundWaiting, err)
			}
			if tt.missing && !strings.Contains(err.Error(), "sound-theme-freedesktop") {
				t.Errorf("the error does not say what to install: %v", err)
			}
		})
	}
}

// TestPlayerOnARelativePathEntry: a player found only through a relative
// PATH entry (PATH=bin) is not used, and RelativeOnly names it, for hud
// doctor to say why no sound plays.
func TestPlayerOnARelativePathEntry(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "paplay"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("PATH", "bin")
	if play, desc := Player("linux", exec.LookPath, nil); play != nil {
		t.Errorf("a player on a relative PATH entry is used: %s", desc)
	}
	if got := RelativeOnly("linux", exec.LookPath); got != "paplay" {
		t.Errorf("RelativeOnly = %q, want paplay", got)
	}
	t.Setenv("PATH", filepath.Join(dir, "bin"))
	if got := RelativeOnly("linux", exec.LookPath); got != "" {
		t.Errorf("RelativeOnly with an absolute entry = %q, want none", got)
	}
}
