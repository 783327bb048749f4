package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookLinksNoInstall: hud-hook links hud/install through the agents'
// packages (agent.Kind.Setup), and starts on every tool call, so none of
// install may end up in it: no function, no variable, no initialisation.
// The agents build their Setup inside the method, which the hook never
// calls, and install keeps no package-level state that needs computing;
// a package-level Setup, regexp or list built at init would show here.
func TestHookLinksNoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hook")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	bin := filepath.Join(t.TempDir(), "hud-hook")
	build := exec.Command(gotool, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(gotool, "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	const install = "github.com/capacitor-hud/hud/hud/install."
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && strings.HasPrefix(f[2], install) {
			t.Errorf("bin/hud-hook links %s", f[2])
		}
	}
}
