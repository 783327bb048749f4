package cli

import (
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/install"
)

// pluginWiresHook reports whether an enabled Claude Code plugin (hud's
// own, from `claude plugin install hud@hud`) runs hud-hook on every event,
// by the user's settings file settingsPath.
func pluginWiresHook(settingsPath string) bool {
	for _, p := range install.InspectPlugins(filepath.Dir(settingsPath), []string{settingsPath}) {
		if p.Installed() {
			return true
		}
	}
	return false
}
