package worksession

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/resolver"
)

func TestTrayNotifiesMilestonesOnce(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(project, ".git"), 0o755)
	project = paths.Normalize(project)
	files := Files{Layout: paths.Layout{Home: home}}
	s, _ := New("Fix login", "api", t0)
	if err := files.Create(project, s); err != nil {
		t.Fatal(err)
	}
	var shown []string
	section := NewSection(DefaultSettings(), func(title, body string) { shown = append(shown, title) }, t.Logf)
	live := []resolver.Session{{CWD: filepath.Join(project, "src")}, {CWD: project}}

	now := t0
	next := section.Update(now, live)
	if !next.Equal(t0.Add(time.Minute)) || len(shown) != 0 {
		t.Errorf("first look: next %v, shown %q", next, shown)
	}
	// The hook counts 41 minutes of work.
	for range 41 {
		now = now.Add(time.Minute)
		files.Update(project, func(s *State) error { Observe(s, now, Activity{}, DefaultSettings()); return nil })
	}
	section.Update(now, live)
	section.Update(now.Add(time.Second), live)
	if len(shown) != 1 || shown[0] != "api: 40m of work" {
		t.Errorf("shown %q", shown)
	}
	lines, _ := section.Rows(now.Add(30 * time.Second))
	if len(lines) != 1 || lines[0] != "api · 41m of work" {
		t.Errorf("rows %q", lines)
	}
	files.Remove(project)
	if lines, next := section.Rows(now); len(lines) != 0 || !next.IsZero() {
		t.Errorf("after stop: %q, %v", lines, next)
	}
}

// The tray wakes for a work session's line only while its minute count
// climbs: not once the person has been away past the idle gap (the count
// stands still until the hook's next event), and not while paused.
func TestTrayWakesOnlyWhileTheCountClimbs(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(project, ".git"), 0o755)
	project = paths.Normalize(project)
	files := Files{Layout: paths.Layout{Home: home}}
	s, _ := New("Fix login", "api", t0)
	if err := files.Create(project, s); err != nil {
		t.Fatal(err)
	}
	set := DefaultSettings()
	section := NewSection(set, nil, t.Logf)
	live := []resolver.Session{{CWD: project}}

	// 30 s before the idle gap ends, the count drops back then.
	before := t0.Add(set.IdleGap - 30*time.Second)
	if next := section.Update(before, live); !next.Equal(t0.Add(set.IdleGap)) {
		t.Errorf("just before the idle gap: next %v, want %v", next, t0.Add(set.IdleGap))
	}
	away := t0.Add(set.IdleGap + 10*time.Minute)
	if next := section.Update(away, live); !next.IsZero() {
		t.Errorf("away past the idle gap: next %v, want none", next)
	}
	if _, next := section.Rows(away); !next.IsZero() {
		t.Errorf("rows away past the idle gap: next %v, want none", next)
	}
	files.Update(project, func(s *State) error { return s.Pause(t0.Add(time.Minute), "lunch", set) })
	if next := section.Update(t0.Add(2*time.Minute), live); !next.IsZero() {
		t.Errorf("paused: next %v, want none", next)
	}
}
