package agenttest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/install"
)

// Home is a new home directory holding files (path below the home: its
// contents), for an agent's install to edit.
func Home(t testing.TB, files map[string]string) install.Env {
	t.Helper()
	home := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return install.Env{Home: home}
}

// FakeHook is an executable hud-hook that does nothing, for an install
// to wire in and doctor's checks to find runnable.
func FakeHook(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hud-hook")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// An Install is one agent's install tried from a home with the person's
// files in it.
type Install struct {
	Setup   *install.Setup
	Files   map[string]string // the person's files (path below the home: contents)
	Path    string            // the file install edits, below the home
	Want    []string          // what the installed file holds
	NotWant []string          // what it must not
	// AfterUndo is the file uninstall leaves, "" for removed.
	AfterUndo string
	// PersonFile is a file of the person's that install must not touch.
	PersonFile string
}

// CheckInstall: a dry run writes nothing; install wires what c wants and
// nothing else, as JSON; a second run changes nothing; doctor's Problems
// is clean; uninstall gives back the person's file byte for byte or
// removes hud's own.
func CheckInstall(t *testing.T, c Install) {
	t.Helper()
	env := Home(t, c.Files)
	path := filepath.Join(env.Home, c.Path)
	hook := FakeHook(t)
	opts := install.Options{HookPath: hook, Now: func() time.Time { return time.Unix(1e9, 0) }}
	if c.Setup.Installed(env) {
		t.Fatal("installed before install")
	}
	before, _ := os.ReadFile(path)
	if res, err := c.Setup.Install(env, install.Options{HookPath: hook, DryRun: true}); err != nil || !res[0].Changed || res[0].Diff == "" {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the dry run wrote the file")
	}
	res, err := c.Setup.Install(env, opts)
	if err != nil || !res[0].Changed {
		t.Fatalf("install: %+v, %v", res, err)
	}
	checkInstalled(t, c, path)
	if p := c.Setup.Problems(env); len(p) != 0 || !c.Setup.Installed(env) {
		t.Errorf("after install: problems %q", p)
	}
	if res, err := c.Setup.Install(env, opts); err != nil || res[0].Changed {
		t.Errorf("second install changed something: %+v, %v", res, err)
	}
	if _, err := c.Setup.Uninstall(env, opts); err != nil {
		t.Fatal(err)
	}
	undone, err := os.ReadFile(path)
	switch {
	case c.AfterUndo == "" && !os.IsNotExist(err):
		t.Errorf("uninstall left %s:\n%s", c.Path, undone)
	case c.AfterUndo != "" && string(undone) != c.AfterUndo:
		t.Errorf("uninstall left\n%s\nwant\n%s", undone, c.AfterUndo)
	}
	if c.PersonFile != "" {
		if b, _ := os.ReadFile(filepath.Join(env.Home, c.PersonFile)); string(b) != c.Files[c.PersonFile] {
			t.Errorf("the person's %s changed:\n%s", c.PersonFile, b)
		}
	}
	if c.Setup.Installed(env) {
		t.Error("still installed after uninstall")
	}
}

// checkInstalled holds the installed file at path to c's Want and
// NotWant.
func checkInstalled(t *testing.T, c Install, path string) {
	t.Helper()
	got, _ := os.ReadFile(path)
	var v any
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("not JSON after install: %v\n%s", err, got)
	}
	for _, w := range c.Want {
		if !strings.Contains(string(got), w) {
			t.Errorf("installed file lacks %s:\n%s", w, got)
		}
	}
	for _, w := range c.NotWant {
		if strings.Contains(string(got), w) {
			t.Errorf("installed file has %s:\n%s", w, got)
		}
	}
}
