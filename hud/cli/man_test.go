package cli

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The manual lists every command with the usage its --help prints, and
// groff reads both pages without a warning.
func TestManPages(t *testing.T) {
	date := time.Date(2026, 11, 22, 7, 46, 0, 0, time.UTC)
	var hud, hook bytes.Buffer
	if err := ManPage(&hud, "1.2.0", date); err != nil {
		t.Fatal(err)
	}
	if err := HookManPage(&hook, "1.2.0", date); err != nil {
		t.Fatal(err)
	}
	page := hud.String()
	if !strings.HasPrefix(page, `.TH HUD 1 "2026-11-22" "hud 1.2.0" "User Commands"`) {
		t.Errorf("title line: %q", strings.SplitN(page, "\n", 2)[0])
	}
	for _, c := range commands {
		for _, want := range []string{"\n.SS " + c.name + "\n", "\nUsage: hud " + c.name} {
			if !strings.Contains(page, want) {
				t.Errorf("hud.1 lacks %q", want)
			}
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("no groff to read the pages with")
	}
	for name, src := range map[string]string{"hud.1": page, "hud-hook.1": hook.String()} {
		cmd := exec.Command(groff, "-Tutf8", "-man", "-ww", "-z") // as man(1) renders for a terminal
		cmd.Stdin = strings.NewReader(src)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("groff on %s: %v\n%s", name, err, out)
		}
	}
}
