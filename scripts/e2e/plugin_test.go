package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
