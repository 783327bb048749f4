package install

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

// clientTimeout bounds `claude --version`; it answers in well under a
// second, and install must not hang on a broken installation.
const clientTimeout = 5 * time.Second

// DetectClient asks the Claude Code found on searchPath (a $PATH value)
// for its version, so Install wires only the events it accepts. It
// returns the zero Version, which Install reads as the oldest supported
// client, with the reason when there is no claude or it does not say.
func DetectClient(ctx context.Context, searchPath string) (hookevents.Version, error) {
	path := findExecutable("claude", searchPath)
	if path == "" {
		return hookevents.Version{}, errors.New("no claude on $PATH")
	}
	ctx, cancel := context.WithTimeout(ctx, clientTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return hookevents.Version{}, fmt.Errorf("%s --version: %w", path, err)
	}
	v, ok := hookevents.ParseVersion(string(out))
	if !ok {
		return hookevents.Version{}, fmt.Errorf("%s --version said %q", path, strings.TrimSpace(string(out)))
	}
	return v, nil
}

// findExecutable returns the first executable called name in the
// directories of searchPath, or "".
func findExecutable(name, searchPath string) string {
	for _, dir := range filepath.SplitList(searchPath) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // "" and relative entries mean the current directory: never trusted
		}
		if p := filepath.Join(dir, name); isExecutable(p) {
			return p
		}
	}
	return ""
}
