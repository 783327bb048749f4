package focus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5/introspect"

	"github.com/capacitor-hud/hud/assets"
	hudfocus "github.com/capacitor-hud/hud/hud/focus"
)

// `hud install` on GNOME puts the extension where GNOME Shell finds it, in
// the format of the shell it finds, and says how to enable it; enabled so,
// the real GNOME Shell loads it at the next login and it exports its two
// methods and nothing else. Disabled, it is gone from the bus and hud
// says how to get it back; `hud uninstall` removes it.
func TestGNOMEExtensionInstalledAndRunning(t *testing.T) {
	hud, hook := setupGNOME(t)
	home := newHome(t)
	d := startGNOME(t, home, hud, hook)
	uuid := assets.GNOMEExtensionUUID
	major := gnomeShellMajor(t)
	format := "GNOME Shell 45 and later"
	if major < 45 {
		format = "GNOME Shell 43 and 44"
	}
	for _, want := range []string{"Installed hud's GNOME Shell extension (for " + format + ")",
		"enable it with 'gnome-extensions enable " + uuid + "', then log out and in again"} {
		if !strings.Contains(d.installed, want) {
			t.Errorf("hud install printed no %q:\n%s", want, d.installed)
		}
	}
	dir := filepath.Join(home, ".local", "share", "gnome-shell", "extensions", uuid)
	checkGNOMEExtensionFiles(t, dir, major)

	info, err := d.extensionInfo(uuid)
	if err != nil {
		t.Fatal(err)
	}
	if info["state"].Value() != 1.0 || info["error"].Value() != "" || info["path"].Value() != dir {
		t.Errorf("GNOME Shell says of the extension: %v", info)
	}
	if methods := d.exported(t); !slices.Equal(methods, []string{"Activate", "FocusedPid"}) {
		t.Errorf("the extension exports %v, want Activate and FocusedPid only", methods)
	}
	if pid := d.focused(t); pid != 0 {
		t.Errorf("no window yet, but process %d has the focus", pid)
	}

	shell := d.conn.Object("org.gnome.Shell", "/org/gnome/Shell")
	if err := shell.Call("org.gnome.Shell.Extensions.DisableExtension", 0, uuid).Err; err != nil {
		t.Fatal(err)
	}
	_, err = d.shell.Focused(context.Background())
	if !errors.Is(err, hudfocus.ErrNoGNOMEExtension) || !strings.Contains(err.Error(), "gnome-extensions enable "+uuid) {
		t.Errorf("the extension disabled: %v, want ErrNoGNOMEExtension with the hint", err)
	}
	if err := shell.Call("org.gnome.Shell.Extensions.EnableExtension", 0, uuid).Err; err != nil {
		t.Fatal(err)
	}
	d.focused(t)

	out := runIn(t, d.base, home, hud, "uninstall")
	if !strings.Contains(out, "Removed hud's GNOME Shell extension from "+dir) {
		t.Errorf("hud uninstall printed:\n%s", out)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("hud uninstall left %s: %v", dir, err)
	}
}

// gnomeShellMajor is the major version of the GNOME Shell under test.
func gnomeShellMajor(t *testing.T) int {
	t.Helper()
	out, err := exec.Command("gnome-shell", "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	var major int
	if _, err := fmt.Sscanf(string(out), "GNOME Shell %d", &major); err != nil {
		t.Fatalf("gnome-shell --version: %q", out)
	}
	return major
}

// checkGNOMEExtensionFiles checks the installed extension: 0644 files in
// a 0755 directory, metadata naming the shell's version.
func checkGNOMEExtensionFiles(t *testing.T, dir string, major int) {
	t.Helper()
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o755 {
		t.Fatalf("%s: %v %v", dir, fi, err)
	}
	for _, name := range []string{"extension.js", "metadata.json"} {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || fi.Mode() != 0o644 {
			t.Errorf("%s: %v %v", name, fi, err)
		}
	}
	var meta struct {
		UUID     string   `json:"uuid"`
		Versions []string `json:"shell-version"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "metadata.json"))
	if err := json.Unmarshal(b, &meta); err != nil || meta.UUID != assets.GNOMEExtensionUUID ||
		!slices.Contains(meta.Versions, fmt.Sprint(major)) {
		t.Errorf("metadata.json for GNOME Shell %d: %+v %v", major, meta, err)
	}
}

// exported lists the methods of hud's interface on the extension's object.
func (d *gnomeDesk) exported(t *testing.T) []string {
	t.Helper()
	node, err := introspect.Call(d.conn.Object("org.gnome.Shell", "/io/github/capacitor_hud/Shell"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, iface := range node.Interfaces {
		if strings.HasPrefix(iface.Name, "org.freedesktop.DBus.") {
			continue
		}
		if iface.Name != "io.github.capacitor_hud.Shell1" || len(iface.Signals)+len(iface.Properties) > 0 {
			t.Errorf("the extension exports %s with %d signals, %d properties", iface.Name, len(iface.Signals), len(iface.Properties))
		}
		for _, m := range iface.Methods {
			names = append(names, m.Name)
		}
	}
	slices.Sort(names)
	return names
}

// `hud focus` brings the session's terminal forward on GNOME under
// Wayland, another window focused before: foot, a native Wayland
// terminal, which only the shell may raise, and xterm through XWayland,
// also when hud has no X display to fall back on. Both hud's extension
// and Mutter's own window list say it has the focus within withinClick of
// the click.
func TestGNOMEFocusRaisesTheTerminal(t *testing.T) {
	for _, kind := range []string{"foot", "xterm"} {
		t.Run(kind, func(t *testing.T) {
			hud, hook := setupGNOME(t)
			home := newHome(t)
			d := startGNOME(t, home, hud, hook)
			s := newTerminalSession(t, home, "alpha", "f0c05e55-0000-4000-8000-0000000007c1")
			s.pid = d.terminal(t, kind, "claude-"+kind, s.command(hook))
			waitSession(t, hud, home, s.id)
			other := d.terminal(t, kind, "other", "exec cat")

			t.Logf("%s: focused %v after the click began", kind, d.click(t, hud, d.env, s))
			if kind != "xterm" {
				return
			}
			d.activate(t, other)
			noX := slices.DeleteFunc(slices.Clone(d.env), func(v string) bool {
				return strings.HasPrefix(v, "DISPLAY=") || strings.HasPrefix(v, "XAUTHORITY=")
			})
			t.Logf("%s, hud without an X display: focused %v after the click began", kind, d.click(t, hud, noX, s))
		})
	}
}
