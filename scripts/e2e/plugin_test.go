package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPlugin: hud's Claude Code plugin in place of `hud install`. The HOME
// never saw `hud install` (no settings.json at all); Claude loads the
// repository's plugin/ for the session (`claude --plugin-dir`), whose hooks
// run the hud-hook they find on PATH, as a package puts it in /usr/bin.
// start → ready; a prompt → working; the turn's end → ready; /exit → gone.
func TestPlugin(t *testing.T) {
	s := needSuite(t)
	s.preflight(t)
	r := makeRig(t, s, "proj")
	s.hooksOnce.Do(func() { s.hooksBy = "the plugin (claude --plugin-dir plugin/)" })
	plugin, err := filepath.Abs(filepath.Join("..", "..", "plugin"))
	if err != nil {
		t.Fatal(err)
	}
	// Only the hook's directory is added: the plugin must find hud-hook by
	// PATH, never by a path written into a settings file.
	t.Setenv("PATH", filepath.Dir(s.hook)+string(os.PathListSeparator)+os.Getenv("PATH"))

	c := r.launch("claude --plugin-dir", r.dir("proj"), "--plugin-dir", plugin)
	c.awaitPrompt()
	id := c.sessionID()
	r.expectStarted(c, id)
	if _, err := os.Stat(filepath.Join(r.home, ".claude", "settings.json")); err == nil {
		t.Errorf("a settings.json appeared: the plugin must wire the hooks without one")
	}

	at := c.submit("SLOW:3")
	r.expect("prompt → working", at, "Enter", stepLimit, workingOn(id, "SLOW:3"))
	end := c.turnEnd(at, 15*time.Second)
	r.expect("turn ends → ready", end, turnDone, stepLimit, showing(id, "ready"))

	at = c.submit("/exit")
	r.expect("/exit → gone", at, "Enter", stepLimit, gone(id))
	exited := c.waitExit(10 * time.Second)
	r.expectLockReleased("/exit → lock released", c.pane.pid, exited, "process exit", stepLimit)
}
