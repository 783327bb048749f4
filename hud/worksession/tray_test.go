package worksession

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

func TestTrayNotifiesMilestonesOnce(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(project, ".git"), 0o755)
	project = resolver.NormalizePath(project)
	files := Files{Layout: resolver.Layout{Home: home}}
	s, _ := New("Fix login", "api", t0)
	if err := files.Create(project, s); err != nil {
		t.Fatal(err)
	}
	var shown []string
	tray := NewTray(DefaultSettings(), func(title, body string) { shown = append(shown, title) }, t.Logf)
	live := []resolver.Session{{CWD: filepath.Join(project, "src")}, {CWD: project}}

	now := t0
	next := tray.Update(now, live)
	if !next.Equal(t0.Add(time.Minute)) || len(shown) != 0 {
		t.Errorf("first look: next %v, shown %q", next, shown)
	}
	// The hook counts 41 minutes of work.
	for range 41 {
		now = now.Add(time.Minute)
		files.Update(project, func(s *State) error { Observe(s, now, Activity{}, DefaultSettings()); return nil })
	}
	tray.Update(now, live)
	tray.Update(now.Add(time.Second), live)
	if len(shown) != 1 || shown[0] != "api: 40 min of work" {
		t.Errorf("shown %q", shown)
	}
	lines, _ := tray.Rows(now.Add(30 * time.Second))
	if len(lines) != 1 || lines[0] != "api · 41 min of work" {
		t.Errorf("rows %q", lines)
	}
	files.Remove(project)
	if lines, next := tray.Rows(now); len(lines) != 0 || !next.IsZero() {
		t.Errorf("after stop: %q, %v", lines, next)
	}
}
