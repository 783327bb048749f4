package install

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// gnomeEnv is a person's home on GNOME, with env for the variables.
func gnomeEnv(t *testing.T, env map[string]string) Env {
	home := t.TempDir()
	return Env{Home: home, Getenv: func(k string) string { return env[k] }}
}

func TestOnGNOME(t *testing.T) {
	for desktops, want := range map[string]bool{
		"GNOME": true, "ubuntu:GNOME": true, "gnome": true, "GNOME-Classic:GNOME": true,
		"": false, "KDE": false, "X-Cinnamon": false, "GNOME-Flashback": false,
	} {
		env := Env{Getenv: func(string) string { return desktops }}
		if got := OnGNOME(env); got != want {
			t.Errorf("XDG_CURRENT_DESKTOP=%q: %v, want %v", desktops, got, want)
		}
	}
}

// The extension goes below $XDG_DATA_HOME when it is absolute, else
// below ~/.local/share.
func TestGNOMEExtensionDir(t *testing.T) {
	for value, want := range map[string]string{
		"":          "/home/u/.local/share/gnome-shell/extensions/hud@capacitor-hud.github.io",
		"/srv/data": "/srv/data/gnome-shell/extensions/hud@capacitor-hud.github.io",
		"rel/data":  "/home/u/.local/share/gnome-shell/extensions/hud@capacitor-hud.github.io",
	} {
		env := Env{Home: "/home/u", Getenv: func(string) string { return value }}
		if got := GNOMEExtensionDir(env); got != want {
			t.Errorf("XDG_DATA_HOME=%q: %s, want %s", value, got, want)
		}
	}
}

func TestParseShellVersion(t *testing.T) {
	for out, want := range map[string]int{
		"GNOME Shell 43.9\n": 43, "GNOME Shell 44.0": 44, "GNOME Shell 47.rc\n": 47, "GNOME Shell 50": 50,
		"": 0, "gnome-shell 43.9": 0, "GNOME Shell x.1": 0, "GNOME Shell -1.2": 0,
	} {
		got, ok := parseShellVersion(out)
		if got != want || ok != (want > 0) {
			t.Errorf("%q: %d %v, want %d", out, got, ok, want)
		}
	}
}

// fakeShell puts a gnome-shell running script on a directory of its own
// and returns that directory, for $PATH.
func fakeShell(t *testing.T, script string) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gnome-shell"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The version comes from the gnome-shell on $PATH, within the caller's
// deadline even when it hangs (and a child of it holds its output).
func TestGNOMEShellVersion(t *testing.T) {
	ctx := context.Background()
	if major, err := GNOMEShellVersion(ctx, fakeShell(t, `echo "GNOME Shell 44.3"`)); err != nil || major != 44 {
		t.Errorf("GNOMEShellVersion = %d, %v; want 44", major, err)
	}
	if _, err := GNOMEShellVersion(ctx, t.TempDir()); err == nil {
		t.Error("no gnome-shell: no error")
	}
	if _, err := GNOMEShellVersion(ctx, fakeShell(t, "echo hello")); err == nil {
		t.Error("an answer that is no version: no error")
	}
	ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := GNOMEShellVersion(ctx, fakeShell(t, "sleep 30")); err == nil {
		t.Error("a gnome-shell that hangs: no error")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("a gnome-shell that hangs held install for %v", took)
	}
}

// extensionFile reads one file of the embedded extension.
func extensionFile(t *testing.T, legacy bool, name string) string {
	b, err := fs.ReadFile(assets.GNOMEShellExtension(legacy), name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkInstalled checks that dir holds the variant's files, 0644 in a
// 0755 directory.
func checkInstalled(t *testing.T, dir string, legacy bool) {
	t.Helper()
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o755 {
		t.Fatalf("the extension's directory: %v %v", fi, err)
	}
	for _, name := range []string{"extension.js", "metadata.json"} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != extensionFile(t, legacy, name) {
			t.Errorf("%s is not the embedded one (legacy %v)", name, legacy)
		}
		if fi, _ := os.Lstat(p); fi.Mode() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", name, fi.Mode())
		}
	}
}

// Install writes the format of the shell it finds, changes nothing the
// second time, and moves to the other format with the shell; a dry run
// writes nothing. Elsewhere than GNOME it does nothing at all.
func TestInstallGNOME(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	vars := map[string]string{"XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "PATH": fakeShell(t, `echo "GNOME Shell 43.9"`)}
	env := gnomeEnv(t, vars)
	dir := GNOMEExtensionDir(env)
	ctx := context.Background()

	res, err := InstallGNOME(ctx, env, true)
	if err != nil || !res.Changed || !res.Legacy || res.Shell != 43 || res.Dir != dir {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	if _, err := os.Lstat(filepath.Join(env.Home, ".local")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the dry run wrote: %v", err)
	}
	if res, err = InstallGNOME(ctx, env, false); err != nil || !res.Changed || !res.Legacy {
		t.Fatalf("install: %+v, %v", res, err)
	}
	checkInstalled(t, dir, true)
	if !strings.Contains(res.Report(true, false), "gnome-extensions enable "+assets.GNOMEExtensionUUID) {
		t.Errorf("the report says not how to enable it: %q", res.Report(true, false))
	}
	if res, err = InstallGNOME(ctx, env, false); err != nil || res.Changed {
		t.Errorf("second install: %+v, %v", res, err)
	}

	vars["PATH"] = fakeShell(t, `echo "GNOME Shell 47.2"`)
	if res, err = InstallGNOME(ctx, env, false); err != nil || !res.Changed || res.Legacy {
		t.Fatalf("install for 47: %+v, %v", res, err)
	}
	checkInstalled(t, dir, false)
	vars["PATH"] = t.TempDir()
	if res, err = InstallGNOME(ctx, env, false); err != nil || res.Changed || res.Shell != 0 {
		t.Errorf("no gnome-shell found: the current format, unchanged: %+v, %v", res, err)
	}

	other := gnomeEnv(t, map[string]string{"XDG_CURRENT_DESKTOP": "KDE"})
	if res, err := InstallGNOME(ctx, other, false); err != nil || res.Dir != "" || res.Report(true, false) != "" {
		t.Errorf("on KDE: %+v, %v", res, err)
	}
}

// A link where the directory goes is refused, and nothing is written
// through it; a link in place of a file is replaced, its target left as
// it was.
func TestInstallGNOMENeverFollowsALink(t *testing.T) {
	env := gnomeEnv(t, nil)
	dir := GNOMEExtensionDir(env)
	elsewhere := t.TempDir()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	for _, dryRun := range []bool{true, false} {
		_, err := InstallGNOMEExtension(env, 43, dryRun)
		if !errors.Is(err, safefile.ErrNotDir) || HintOf(err) == "" {
			t.Errorf("dry run %v: err = %v, want a refusal with a hint", dryRun, err)
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("written through the link: %v", entries)
	}
	if _, err := UninstallGNOME(env, false); err == nil {
		t.Error("uninstall went through the link")
	}

	os.Remove(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(elsewhere, "precious")
	os.WriteFile(target, []byte("mine"), 0o600)
	os.Symlink(target, filepath.Join(dir, "extension.js"))
	if _, err := InstallGNOMEExtension(env, 45, false); err != nil {
		t.Fatal(err)
	}
	checkInstalled(t, dir, false)
	if b, _ := os.ReadFile(target); string(b) != "mine" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// Uninstall removes hud's files and the directory, but not a file the
// person put there, nor the directory holding it; a dry run removes
// nothing, and nothing installed is no change.
func TestUninstallGNOME(t *testing.T) {
	env := gnomeEnv(t, nil)
	dir := GNOMEExtensionDir(env)
	if res, err := UninstallGNOME(env, false); err != nil || res.Changed || res.Report(false, false) != "" {
		t.Errorf("nothing installed: %+v, %v", res, err)
	}
	if _, err := InstallGNOMEExtension(env, 44, false); err != nil {
		t.Fatal(err)
	}
	if res, err := UninstallGNOME(env, true); err != nil || !res.Changed {
		t.Errorf("dry run: %+v, %v", res, err)
	}
	checkInstalled(t, dir, true)
	res, err := UninstallGNOME(env, false)
	if err != nil || !res.Changed || !strings.Contains(res.Report(false, false), "Removed") {
		t.Errorf("uninstall: %+v, %v", res, err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory is still there: %v", err)
	}

	InstallGNOMEExtension(env, 44, false)
	mine := filepath.Join(dir, "notes.txt")
	os.WriteFile(mine, []byte("mine"), 0o600)
	if _, err := UninstallGNOME(env, false); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "notes.txt" {
		t.Errorf("left in the directory: %v, want only notes.txt", entries)
	}
}
