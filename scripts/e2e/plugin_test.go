package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/install"
)

// TestPlugin: hud's Claude Code plugin in place of `hud install`. In this
// HOME `hud install` never ran (settings.json has no hooks); Claude loads
// the repository's plugin/ for the session (`claude --plugin-dir`), whose
// hooks run the hud-hook they find on PATH, as a package puts it in
// /usr/bin. start → ready; a prompt → working; the turn's end → ready;
// /exit → gone.
func TestPlugin(t *testing.T) {
	s := needSuite(t)
	s.preflight(t)
	r := makeRig(t, s, "proj")
	plugin, err := filepath.Abs(filepath.Join("..", "..", "plugin"))
	if err != nil {
		t.Fatal(err)
	}
	// Only the hook's directory is added: the plugin must find hud-hook by
	// PATH, never by a path written into a settings file.
	t.Setenv("PATH", filepath.Dir(s.hook)+string(os.PathListSeparator)+os.Getenv("PATH"))
	settings := filepath.Join(r.home, ".claude", "settings.json")
	if data, err := os.ReadFile(settings); err == nil && strings.Contains(string(data), "hooks") {
		t.Fatalf("the rig's settings.json has hooks already:\n%s", data)
	}
	s.hooksOnce.Do(func() { s.hooksBy = "the plugin (claude --plugin-dir plugin/)" })
	r.hooked = true // by the plugin: from the first prompt on, every step is checked

	c := r.launch("claude --plugin-dir", r.dir("proj"), "--plugin-dir", plugin)
	id := c.awaitPrompt()

	at := c.submit("SLOW:3")
	r.expect("prompt → working", at, "Enter", stepLimit, workingOn(id, "SLOW:3"))
	end := c.turnEnd(at, 15*time.Second)
	r.expect("turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))

	at = c.submit("/exit")
	r.expect("/exit → gone", at, "Enter", stepLimit, gone(id))
	exited := c.waitExit(10 * time.Second)
	r.expectLockReleased("/exit → lock released", c.pane.pid, exited, "process exit", stepLimit)

	if data, err := os.ReadFile(settings); err == nil && strings.Contains(string(data), "hud-hook") {
		t.Errorf("settings.json names hud-hook: the plugin must wire the hook without it:\n%s", data)
	}
}

// TestPluginMarketplace: the repository as a person adds it. The real CLI
// validates both manifests, adds the repository as a marketplace and
// installs hud@hud from it; `hud doctor` then finds the hooks in the
// files Claude Code wrote, warns once `hud install` wires them as well,
// and forgets the plugin once it is uninstalled.
func TestPluginMarketplace(t *testing.T) {
	s := needSuite(t)
	r := makeRig(t, s, "proj")
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(s.hook)+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Env = r.claudeEnv()
		cmd.Dir = r.dir("proj")
		out, err := cmd.CombinedOutput()
		if err != nil && !(name == s.hud && args[0] == "doctor") { // doctor exits 1 without a tray host
			t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	has := func(out, what string, want bool) {
		t.Helper()
		if strings.Contains(out, what) != want {
			t.Errorf("want %q %v in:\n%s", what, map[bool]string{true: "present", false: "absent"}[want], out)
		}
	}

	for _, dir := range []string{repo, filepath.Join(repo, "plugin")} {
		out := run(s.claude, "plugin", "validate", dir)
		has(out, "Validation passed", true)
		has(out, "✘", false)
	}
	run(s.claude, "plugin", "marketplace", "add", repo)
	out := run(s.claude, "plugin", "install", "hud@hud")
	has(out, "Successfully installed plugin: hud@hud", true)

	doctor := run(s.hud, "doctor", "--project", r.dir("proj"))
	has(doctor, "✓ hooks", true)
	has(doctor, "a plugin wires them", true)
	has(doctor, "the plugin hud@hud runs hud-hook on "+strconv.Itoa(len(install.Events()))+" events", true)
	has(doctor, "runs twice", false)

	run(s.hud, "install", "--hook", s.hook)
	doctor = run(s.hud, "doctor", "--project", r.dir("proj"))
	has(doctor, "wires hud-hook too, so it runs twice on every event", true)
	run(s.hud, "uninstall")

	run(s.claude, "plugin", "uninstall", "hud@hud")
	doctor = run(s.hud, "doctor", "--project", r.dir("proj"))
	has(doctor, "hud@hud", false)
	has(doctor, "✗ hooks", true)
}

// TestPluginWithoutHook: the plugin enabled, but no hud-hook anywhere it
// looks (hud not installed, or gone). Claude Code must not notice: no
// hook error on screen in any event of a turn, and nothing recorded.
func TestPluginWithoutHook(t *testing.T) {
	s := needSuite(t)
	s.preflight(t)
	for _, d := range []string{"/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"} {
		if _, err := os.Stat(filepath.Join(d, "hud-hook")); err == nil {
			t.Skipf("this machine has %s/hud-hook, which the plugin would find", d)
		}
	}
	r := makeRig(t, s, "proj")
	plugin, err := filepath.Abs(filepath.Join("..", "..", "plugin"))
	if err != nil {
		t.Fatal(err)
	}
	// The claude executable is named with its full path; the hooks' shell
	// needs only the system's own directories.
	t.Setenv("PATH", "/usr/bin:/bin")
	c := r.launch("claude --plugin-dir", r.dir("proj"), "--plugin-dir", plugin)
	c.awaitPrompt()
	at := c.submit("TOOL:touch made.txt")
	shown := c.waitScreen("the permission dialog", 10*time.Second, dialogShown)
	c.answer(shown, "Enter") // "1. Yes"
	c.turnEnd(at, 15*time.Second)
	if _, err := os.Stat(filepath.Join(r.dir("proj"), "made.txt")); err != nil {
		t.Errorf("the turn did not run its tool: %v", err)
	}
	screen := strings.ToLower(c.pane.capture())
	for _, bad := range []string{"hook error", "hook failed", "not found", "hud-hook"} {
		if strings.Contains(screen, bad) {
			t.Errorf("the screen shows %q:\n%s", bad, lastLines(screen, 25))
		}
	}
	if _, err := os.Stat(filepath.Join(r.home, ".capacitor")); err == nil {
		t.Errorf("something recorded the session without a hud-hook")
	}
}
